#!/usr/bin/env node
// `npm start`: everything a new clone needs, then the URLs and the demo logins. Ctrl-C stops all.
// `npm start -- --dev <remote>` (or `npm run dev -- <remote>`): a team's dev loop, that remote
// served by webpack-dev-server with React Fast Refresh inside the shell's development build, the
// rest from their production builds (docs/build.md, "A team's dev loop").
import { PortInUseError, log, ports, stopAll } from './services.mjs';
import { DEV_REMOTES, startStack } from './stack.mjs';

const p = ports();
const devAt = process.argv.indexOf('--dev');
const dev = devAt === -1 ? undefined : process.argv[devAt + 1];
if (devAt !== -1 && (!dev || !DEV_REMOTES.includes(dev))) {
  console.error(`--dev takes one of ${DEV_REMOTES.join(', ')}: npm start -- --dev storefront`);
  process.exit(2);
}
const started = Date.now();
let stopping = false;

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  log('stop', 'stopping every service…');
  await stopAll();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await startStack(p, { quiet: !process.argv.includes('--verbose'), dev });
} catch (err) {
  if (err instanceof PortInUseError) console.error(`\n${err.message}\n`);
  else console.error('\nStart-up failed:', err instanceof Error ? err.message : err, '\n');
  await shutdown(1);
}

const secs = ((Date.now() - started) / 1000).toFixed(0);
const devNote = `(webpack-dev-server: edits to ${dev}-mfe/src show in the shop as you save)`;
console.log(`
MotoParts is running (ready in ${secs} s). Ctrl-C stops everything.

  Shop (shell)        http://localhost:${p.shell}${dev ? '  (development build)' : ''}
  Storefront remote   http://localhost:${p.storefront}  ${dev === 'storefront' ? devNote : '(standalone)'}
  Auth remote         http://localhost:${p.auth}  ${dev === 'auth' ? devNote : '(standalone)'}
  Dashboard remote    http://localhost:${p.dashboard}${dev === 'dashboard' ? `  ${devNote}` : '/dashboard  (standalone)'}
  API                 http://localhost:${p.api}/health
  ${process.env.MONGODB_URI ? 'Database            MONGODB_URI' : `FerretDB            mongodb://127.0.0.1:${p.db}/motoparts`}
  Auth emulator       http://127.0.0.1:${p.authEmulator}
  stripe-mock         http://127.0.0.1:${p.stripe}
  ${process.env.SMTP_URL ? 'Mail                SMTP_URL' : `Mail (Mailpit)      http://127.0.0.1:${p.mailUi}/api/v1/messages  (SMTP 127.0.0.1:${p.smtp})`}

Demo logins:
  admin     admin@motoparts.test / admin-pass-2026
  customer  rider@motoparts.test / rider-pass-2026
`);
