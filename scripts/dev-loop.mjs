#!/usr/bin/env node
// A team's dev loop beside a stack that is already running (`npm start`, or `npm test`'s): the
// shell's development build on its own port, and one remote served by webpack-dev-server with
// React Fast Refresh on another; everything else (the other remotes, the API, the stand-ins) is
// the running stack's, as its config.json names it. `npm start -- --dev <remote>` does the same
// on the stack's own ports. Ctrl-C (or SIGTERM) stops what this started.
//   node scripts/dev-loop.mjs <remote> --shell-port <port> --remote-port <port>
//        [--config <the running shell's /config.json: a URL or a file>] [--out <dir>]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_DIR, log, ports, stopAll, waitForPort } from './services.mjs';
import {
  DEV_REMOTES,
  DEV_SHELL_DIR,
  buildDevShell,
  serveFrontEnd,
  startDevServer,
  withDevRemote,
} from './stack.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'shell-port': { type: 'string' },
    'remote-port': { type: 'string' },
    config: { type: 'string' },
    out: { type: 'string' },
    verbose: { type: 'boolean' },
  },
});
const [remote] = positionals;
const shellPort = Number(values['shell-port']);
const remotePort = Number(values['remote-port']);
if (!remote || !DEV_REMOTES.includes(remote) || !shellPort || !remotePort) {
  console.error(
    `usage: dev-loop.mjs <${DEV_REMOTES.join('|')}> --shell-port <port> --remote-port <port> [--config <url|file>] [--out <dir>]`,
  );
  process.exit(2);
}

const configFile = path.join(DATA_DIR, `config-${shellPort}.json`);
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stopAll();
  // The config written for this shell goes with it (its port is often a passing one).
  rmSync(configFile, { force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

/** The running stack's config: its shell's /config.json (npm start's by default), or a file. */
async function runningConfig(source = `http://127.0.0.1:${ports().shell}/config.json`) {
  if (!/^https?:/.test(source)) return JSON.parse(readFileSync(source, 'utf8'));
  const res = await fetch(source);
  if (!res.ok) throw new Error(`${source}: HTTP ${res.status} (is the stack running?)`);
  return res.json();
}

/** The address a server on this machine answers on, for this process to fetch from. */
const loopback = (url) => {
  const u = new URL(url);
  if (u.hostname === 'localhost') u.hostname = '127.0.0.1';
  return u.href;
};

try {
  const base = await runningConfig(values.config);
  const host = process.env.PUBLIC_HOST ?? 'localhost';
  const config = {
    ...withDevRemote(base, remote, `http://${host}:${remotePort}/`),
    shellUrl: `http://${host}:${shellPort}/`,
  };
  const out = values.out ?? DEV_SHELL_DIR;
  log('build', 'webpack shell (development build, for React Fast Refresh)…');
  await buildDevShell(out);
  await startDevServer(remote, remotePort, { quiet: !values.verbose });
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const shell = serveFrontEnd('shell', out, shellPort, configFile, {
    fragments: Object.fromEntries(Object.entries(config.remotes).map(([name, url]) => [name, loopback(url)])),
    siteApi: loopback(config.apiBaseUrl),
    serviceToken: process.env.SERVICE_TOKEN,
  });
  await waitForPort(shellPort, { child: shell });
  // One line that says the loop is up (the e2e test waits for it).
  console.log(`dev loop ready: http://${host}:${shellPort}/ (${remote} from :${remotePort})`);
} catch (err) {
  console.error('\nThe dev loop could not start:', err instanceof Error ? err.message : err, '\n');
  await shutdown(1);
}
