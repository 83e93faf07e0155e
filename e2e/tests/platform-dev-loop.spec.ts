import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BASE_URL } from '../support/env';

// A team's dev loop (scripts/dev-loop.mjs, the loop `npm start -- --dev <remote>` runs on the
// stack's own ports): beside the running stack, the shell's development build and the auth remote
// served by webpack-dev-server. An edit to the remote's source shows in the shell's page without a
// reload, and what the page held (a typed field, a marker on window) is still there.

const ROOT = path.join(__dirname, '..', '..');
const EDITED = path.join(ROOT, 'auth-mfe', 'src', 'features', 'sign-in', 'pages', 'login-page.tsx');
const LEAD = 'Welcome back. Sign in to order parts and track your orders.';
const EDITED_LEAD = 'Welcome back, rider. Sign in to order parts and track your orders.';

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

let loop: ChildProcess | undefined;
let shellUrl = '';
const out = mkdtempSync(path.join(tmpdir(), 'dev-shell-'));

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const [shellPort, remotePort] = [await freePort(), await freePort()];
  loop = spawn(
    process.execPath,
    [
      path.join(ROOT, 'scripts', 'dev-loop.mjs'),
      'auth',
      '--shell-port',
      String(shellPort),
      '--remote-port',
      String(remotePort),
      '--config',
      `${BASE_URL}/config.json`,
      '--out',
      out,
    ],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  shellUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /dev loop ready: (\S+)/.exec(output);
      if (ready?.[1]) resolve(ready[1]);
    };
    loop?.stdout?.on('data', onData);
    loop?.stderr?.on('data', onData);
    loop?.once('exit', (code) => reject(new Error(`dev-loop.mjs exited with ${code}:\n${output}`)));
  });
});

test.afterAll(async () => {
  if (loop?.pid && loop.exitCode === null) {
    const exited = new Promise((resolve) => loop?.once('exit', resolve));
    process.kill(-loop.pid, 'SIGTERM');
    await exited;
  }
  rmSync(out, { recursive: true, force: true });
});

test('an edit to a remote shows in the shell page, the page and its state kept', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(new URL('login', shellUrl).href);
  await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
  const lead = page.locator('.auth-lead');
  await expect(lead).toHaveText(LEAD);
  // The page's state before the edit: a field typed into, and a marker a reload would lose.
  const email = page.getByLabel('Email');
  await email.fill('dev-loop@motoparts.test');
  await page.evaluate(() => Object.assign(window, { __beforeEdit: 'kept' }));

  const source = readFileSync(EDITED, 'utf8');
  const { atime, mtime } = statSync(EDITED);
  expect(source).toContain(LEAD);
  try {
    writeFileSync(EDITED, source.replace(LEAD, EDITED_LEAD));
    await expect(lead).toHaveText(EDITED_LEAD, { timeout: 60_000 });
    expect(await page.evaluate(() => (window as { __beforeEdit?: string }).__beforeEdit)).toBe('kept');
    await expect(email).toHaveValue('dev-loop@motoparts.test');
  } finally {
    // As it was, time stamp included, so `npm start` does not take the remote for edited.
    writeFileSync(EDITED, source);
    utimesSync(EDITED, atime, mtime);
  }
});

test('production builds carry no dev server or React Refresh code', () => {
  // What the dev loop adds (scripts/webpack/dev.cjs) is for development builds only.
  const markers = ['webpack-dev-server', 'react-refresh', '$RefreshReg$', '__reactRefreshInjected'];
  for (const ws of ['shell', 'storefront-mfe', 'auth-mfe', 'dashboard-mfe']) {
    const dist = path.join(ROOT, ws, 'dist');
    const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(scripts.length, `${ws} has a production build`).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = readFileSync(path.join(dist, file), 'utf8');
      for (const marker of markers)
        expect(code.includes(marker), `${ws}/dist/${file}: ${marker}`).toBe(false);
    }
  }
});
