#!/usr/bin/env node
// `npm start`: everything a new clone needs, then the URLs and the demo logins. Ctrl-C stops all.
import { PortInUseError, log, ports, stopAll } from './services.mjs';
import { startStack } from './stack.mjs';

const p = ports();
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
  await startStack(p, { quiet: !process.argv.includes('--verbose') });
} catch (err) {
  if (err instanceof PortInUseError) console.error(`\n${err.message}\n`);
  else console.error('\nStart-up failed:', err instanceof Error ? err.message : err, '\n');
  await shutdown(1);
}

const secs = ((Date.now() - started) / 1000).toFixed(0);
console.log(`
MotoParts is running (ready in ${secs} s). Ctrl-C stops everything.

  Shop (shell)        http://localhost:${p.shell}
  Storefront remote   http://localhost:${p.storefront}  (standalone)
  Auth remote         http://localhost:${p.auth}  (standalone)
  Dashboard remote    http://localhost:${p.dashboard}/dashboard  (standalone)
  API                 http://localhost:${p.api}/health
  ${process.env.MONGODB_URI ? 'Database            MONGODB_URI' : `FerretDB            mongodb://127.0.0.1:${p.db}/motoparts`}
  Auth emulator       http://127.0.0.1:${p.authEmulator}
  stripe-mock         http://127.0.0.1:${p.stripe}
  ${process.env.SMTP_URL ? 'Mail                SMTP_URL' : `Mail (Mailpit)      http://127.0.0.1:${p.mailUi}/api/v1/messages  (SMTP 127.0.0.1:${p.smtp})`}

Demo logins:
  admin     admin@motoparts.test / admin-pass-2026
  customer  rider@motoparts.test / rider-pass-2026
`);
