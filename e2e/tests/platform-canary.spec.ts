import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { BASE_URL, DEMO } from '../support/env';
import { seedSession } from '../support/auth';

// A canary release of the dashboard for a share of browsers (shell/src/first-screen/canary.ts):
// the config names it beside the stable release, each browser is assigned once and keeps its
// release across reloads, and a canary that does not load falls back to the stable release. The
// canary here is a second build, the fixture remote (scripts/__tests__/fixtures/remote, built
// within the shell's versions), served at a release address on the dashboard's origin; the
// stable release is the stack's own dashboard.

const ROOT = path.join(__dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'canary-'));
const canaryBuild = path.join(work, 'dashboard-2.2.0');
const STORAGE_KEY = 'motoparts.canary.dashboard';

test.beforeAll(() => {
  test.setTimeout(300_000);
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts', '__tests__', 'support', 'fixture-remote.mjs'), canaryBuild, '{}'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`the fixture remote did not build:\n${run.stdout}\n${run.stderr}`);
});

test.afterAll(() => rmSync(work, { recursive: true, force: true }));

interface SiteConfig {
  remotes: Record<string, string>;
  canary?: Record<string, { url: string; percent: number }>;
}

/** The stack's config.json, and the address of the canary release beside its dashboard. */
async function stackConfig(browser: Browser) {
  const context = await browser.newContext();
  const config = (await (await context.request.get(`${BASE_URL}/config.json`)).json()) as SiteConfig;
  await context.close();
  // On the dashboard's origin, which the page's Content-Security-Policy already allows.
  const canaryUrl = new URL('/releases/dashboard/2.2.0/', config.remotes.dashboard).href;
  return { config, canaryUrl };
}

interface Visit {
  context: BrowserContext;
  page: Page;
  /** Paths of the canary release the browser asked for. */
  canaryRequests: string[];
}

/**
 * A browser (its own context) on a site whose config names the dashboard's canary at `percent`,
 * as the server includes it in the page and serves it at /config.json. `roll` seeds the
 * browser's stored draw (below `percent`: on the canary); `canaryDown` refuses the canary's
 * address, as a release that was never uploaded.
 */
async function visit(
  browser: Browser,
  { percent, roll, canaryDown = false }: { percent: number; roll?: number; canaryDown?: boolean },
): Promise<Visit> {
  const { config, canaryUrl } = await stackConfig(browser);
  const withCanary: SiteConfig = { ...config, canary: { dashboard: { url: canaryUrl, percent } } };
  const context = await browser.newContext({
    // The page is answered by the test (below), not by the server on this machine, so Chromium
    // counts it as a public page and asks before it reaches the stack's local addresses.
    permissions: ['local-network-access'],
    storageState:
      roll === undefined
        ? undefined
        : {
            cookies: [],
            origins: [
              {
                origin: new URL(BASE_URL).origin,
                localStorage: [{ name: STORAGE_KEY, value: JSON.stringify({ url: canaryUrl, roll }) }],
              },
            ],
          },
  });
  const shellOrigin = new URL(BASE_URL).origin;
  await context.route(
    (url) => url.origin === shellOrigin,
    async (route) => {
      const request = route.request();
      if (new URL(request.url()).pathname === '/config.json') {
        return route.fulfill({ json: withCanary, headers: { 'cache-control': 'no-cache' } });
      }
      if (request.resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /(<script type="application\/json" id="site-config">)[\s\S]*?(<\/script>)/,
        (_, open: string, close: string) => open + JSON.stringify(withCanary) + close,
      );
      return route.fulfill({ response, body: html });
    },
  );
  const canaryRequests: string[] = [];
  await context.route(`${canaryUrl}**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    canaryRequests.push(pathname);
    if (canaryDown) return route.abort('connectionrefused');
    const file = path.join(canaryBuild, path.relative(new URL(canaryUrl).pathname, pathname));
    try {
      return await route.fulfill({
        body: readFileSync(file),
        contentType: file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
      });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  const page = await context.newPage();
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);
  return { context, page, canaryRequests };
}

const canaryApp = (page: Page) =>
  page.getByRole('button', { name: /^Fixture dashboard, clicked \d+ times$/ });
const stableApp = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });
const versions = (page: Page) => page.locator('html').getAttribute('data-remotes');

test('browsers assigned to the canary and to the stable release each keep theirs across reloads', async ({
  browser,
}) => {
  const onCanary = await visit(browser, { percent: 50, roll: 10 });
  const onStable = await visit(browser, { percent: 50, roll: 90 });
  const { canaryUrl } = await stackConfig(browser);
  for (let load = 0; load < 3; load++) {
    const { page } = onCanary;
    if (load === 0) await page.goto('/dashboard');
    else await page.reload();
    await expect(canaryApp(page)).toBeVisible();
    await expect(stableApp(page)).toHaveCount(0);
    // The page preloaded the canary's entry, and names the release it runs.
    await expect(page.locator(`link[rel=preload][href="${canaryUrl}remoteEntry.js"]`)).toHaveCount(1);
    expect(await versions(page)).toMatch(/(^| )dashboard@2\.2\.0( |$)/);

    const other = onStable.page;
    if (load === 0) await other.goto('/dashboard');
    else await other.reload();
    await expect(stableApp(other)).toBeVisible();
    await expect(canaryApp(other)).toHaveCount(0);
    expect(await versions(other)).toMatch(/(^| )dashboard@unversioned( |$)/);
  }
  expect(onCanary.canaryRequests).toContain(new URL('remoteEntry.js', canaryUrl).pathname);
  expect(onStable.canaryRequests).toEqual([]);
  await onCanary.context.close();
  await onStable.context.close();
});

test('a browser with no assignment draws once and keeps what it drew', async ({ browser }) => {
  const fresh = await visit(browser, { percent: 50 });
  const { canaryUrl } = await stackConfig(browser);
  await fresh.page.goto('/dashboard');
  await expect(canaryApp(fresh.page).or(stableApp(fresh.page))).toBeVisible();
  const drawn = JSON.parse(
    (await fresh.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)) ?? 'null',
  ) as { url: string; roll: number } | null;
  expect(drawn).toEqual({ url: canaryUrl, roll: expect.any(Number) });
  const app = drawn && drawn.roll < 50 ? canaryApp : stableApp;
  await expect(app(fresh.page)).toBeVisible();
  await fresh.page.reload();
  await expect(app(fresh.page)).toBeVisible();
  expect(await fresh.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)).toBe(
    JSON.stringify(drawn),
  );
  await fresh.context.close();
});

test('a canary that does not load falls back to the stable release, reported under its version', async ({
  browser,
}) => {
  const down = await visit(browser, { percent: 50, roll: 10, canaryDown: true });
  const { page } = down;
  const reports: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/client-errors')) {
      reports.push(req.postDataJSON());
    }
  });
  const lines: string[] = [];
  page.on('console', (msg) => {
    if (msg.text().startsWith('[remotes] ')) lines.push(msg.text());
  });
  const reported = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/client-errors'),
  );
  await page.goto('/dashboard');
  // The page works, on the stable release, without an error box.
  await expect(stableApp(page)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'is unavailable right now' })).toHaveCount(0);
  expect(down.canaryRequests.length).toBeGreaterThan(0);
  expect((await reported).status()).toBe(201);
  expect(reports).toEqual([
    expect.objectContaining({
      remote: 'dashboard',
      version: '2.2.0',
      url: expect.stringContaining('/dashboard'),
    }),
  ]);
  // It names the release it runs now: the canary first, then the stable one it fell back to.
  expect(await versions(page)).toMatch(/(^| )dashboard@unversioned( |$)/);
  expect(lines).toEqual([
    expect.stringMatching(/ dashboard@2\.2\.0( |$)/),
    expect.stringMatching(/ dashboard@unversioned( |$)/),
  ]);
  // Pages of the stable release go on working.
  await stableApp(page).getByRole('link').first().click();
  await expect(stableApp(page)).toBeVisible();
  await down.context.close();
});
