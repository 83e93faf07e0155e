import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO } from '../support/env';
import { seedSession } from '../support/auth';

// What lets a team release its remote alone, against a shell build that does not change: the
// shell's runtime guard (shell/src/remotes/version-guard.ts) refuses a remote whose build requires
// shared versions the shell does not provide, before any of its code runs; and the shell routes
// the pages a remote's published route table names (shell/src/app/page-table.ts). The fixture
// remote (scripts/__tests__/fixtures/remote) stands in for the dashboard, built once as a team
// that upgraded React would build it and once within the shell's versions.

const ROOT = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'version-guard-'));
const builds = { incompatible: path.join(work, 'incompatible'), compatible: path.join(work, 'compatible') };

interface Contract {
  shared: Record<string, { package: string; version: string }>;
}

function buildFixture(out: string, dependencies: Record<string, string>, contract?: string) {
  const args = [
    path.join(ROOT, 'scripts', '__tests__', 'support', 'fixture-remote.mjs'),
    out,
    JSON.stringify(dependencies),
  ];
  const run = spawnSync(process.execPath, contract ? [...args, contract] : args, {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the fixture remote did not build:\n${run.stdout}\n${run.stderr}`);
}

test.beforeAll(() => {
  test.setTimeout(300_000);
  // A contract in which the shell shared React 20: the build guard lets the fixture through, as
  // it would for a team that built against a newer shell than the one deployed.
  const contract = JSON.parse(
    readFileSync(path.join(ROOT, 'shell', 'shared-contract.json'), 'utf8'),
  ) as Contract;
  for (const key of ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client']) {
    const entry = contract.shared[key];
    if (entry) entry.version = '20.0.0';
  }
  const file = path.join(work, 'react-20-contract.json');
  writeFileSync(file, JSON.stringify(contract));
  buildFixture(builds.incompatible, { react: '^20.0.0', 'react-dom': '^20.0.0' }, file);
  buildFixture(builds.compatible, {});
});

test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Serves `dist` at the dashboard's address; returns the paths the page asked it for. */
async function serveAsDashboard(page: Page, dist: string) {
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { dashboard: string };
  };
  const requested: string[] = [];
  await page.route(`${config.remotes.dashboard}**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    requested.push(pathname);
    const file = path.join(dist, path.normalize(pathname).replace(/^[/\\]+/, ''));
    try {
      const body = readFileSync(file);
      await route.fulfill({
        body,
        contentType: file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
      });
    } catch {
      await route.fulfill({ status: 404 });
    }
  });
  return requested;
}

/** Every provider of a shared package the page has loaded, as "container@version". */
async function loadedProviders(page: Page, pkg: string) {
  return page.evaluate((name) => {
    type Entry = { loaded?: boolean; from?: string };
    const fed = (
      globalThis as unknown as {
        __FEDERATION__?: {
          __SHARE__?: Record<string, Record<string, Record<string, Record<string, Entry>>>>;
        };
      }
    ).__FEDERATION__;
    const found = new Set<string>();
    for (const scopes of Object.values(fed?.__SHARE__ ?? {}))
      for (const pkgs of Object.values(scopes))
        for (const [version, entry] of Object.entries(pkgs[name] ?? {}))
          if (entry.loaded) found.add(`${entry.from}@${version}`);
    return [...found];
  }, pkg);
}

test('a remote built for another React is refused: its box offers Retry, the rest works, one React', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  const requested = await serveAsDashboard(page, builds.incompatible);
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);
  await page.goto('/dashboard');

  const alert = page.getByRole('alert').filter({ hasText: 'The dashboard is unavailable right now.' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByText(/Fixture dashboard/)).toHaveCount(0);
  // The console names the remote and the mismatch.
  expect(errors.join('\n')).toMatch(
    /The dashboard remote .* was refused: .*\breact: dashboard requires \^20\.0\.0, the shell shares 19\./,
  );
  // Only its remoteEntry.js was fetched: none of its modules (nor its React) was.
  expect(requested.length).toBeGreaterThan(0);
  expect(requested.filter((p) => !p.endsWith('/remoteEntry.js'))).toEqual([]);
  for (const pkg of ['react', 'react-dom']) expect(await loadedProviders(page, pkg)).toHaveLength(1);
  expect((await loadedProviders(page, 'react'))[0]).toMatch(/^shell@19\./);

  // Retry asks again and is refused again; the rest of the site goes on working.
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
});

test('the same remote built within the shell’s versions runs in its place', async ({ page }) => {
  await serveAsDashboard(page, builds.compatible);
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);
  await page.goto('/dashboard');
  const app = page.getByRole('button', { name: 'Fixture dashboard, clicked 0 times' });
  await expect(app).toBeVisible();
  await app.click();
  await expect(page.getByRole('button', { name: 'Fixture dashboard, clicked 1 times' })).toBeVisible();
  // It imports a Redux Toolkit name the shell does not offer: its build took it from its own copy.
  await expect(page.getByText('Notes kept by its own Redux Toolkit')).toBeVisible();
  expect(await loadedProviders(page, 'react')).toHaveLength(1);
});

test('a page only the remote’s published route table names is routed by the unchanged shell', async ({
  page,
}) => {
  await serveAsDashboard(page, builds.compatible);
  await page.goto('/whats-new');
  await expect(page.getByRole('heading', { name: 'What is new in the fixture remote' })).toBeVisible();
  await expect(page).toHaveTitle("What's new - MotoParts");
  // The shell's own pages keep working beside it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  // A path no remote publishes is still not found, once the tables have answered.
  await page.goto('/no-such-page');
  await expect(page.getByRole('img', { name: '404 — page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Not Found - MotoParts');
});
