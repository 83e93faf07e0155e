import { expect, test, type APIResponse, type Page, type Route } from '@playwright/test';
import { API_URL, DEMO } from '../support/env';
import { seedSession } from '../support/auth';

interface SharedEntry {
  loaded?: boolean;
  useIn?: string[];
  from?: string;
}
type ShareScope = Record<string, Record<string, Record<string, Record<string, SharedEntry>>>>;

/** The share scope as the MF runtime keeps it: host → scope → package → version → entry. */
async function shareScope(page: Page) {
  return page.evaluate(() => {
    const fed = (globalThis as unknown as { __FEDERATION__?: { __SHARE__?: unknown } }).__FEDERATION__;
    return JSON.parse(
      JSON.stringify(fed?.__SHARE__ ?? {}, (_k, v) => (typeof v === 'function' ? undefined : v)),
    );
  }) as Promise<ShareScope>;
}

test('home shows the seeded parts rendered by the storefront remote', async ({ page }) => {
  const parts = (await (await fetch(`${API_URL}/parts`)).json()) as { name: string }[];
  expect(parts.length).toBeGreaterThanOrEqual(6);
  const storefrontRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('remoteEntry.js')) storefrontRequests.push(r.url());
  });
  await page.goto('/');
  for (const part of parts.slice(0, 6)) {
    await expect(page.getByRole('heading', { name: part.name, exact: true })).toBeVisible();
  }
  // The grid came through Module Federation: the storefront's remoteEntry was fetched at runtime.
  expect(storefrontRequests.some((u) => /:\d+\/remoteEntry\.js/.test(u))).toBe(true);
});

test('react, react-dom, the router and the store kit are loaded exactly once', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  const scope = await shareScope(page);
  // Every container (shell, storefront) must resolve each singleton to the same provider and version.
  for (const lib of [
    'react',
    'react-dom',
    'react-router-dom',
    'react-router',
    '@reduxjs/toolkit',
    'react-redux',
    '@motoparts/state',
  ]) {
    const loaded = Object.values(scope)
      .flatMap((scopes) => Object.values(scopes))
      .flatMap((pkgs) => Object.entries(pkgs[lib] ?? {}))
      .filter(([, entry]) => entry.loaded);
    expect(loaded.length, `${lib} is in the share scope`).toBeGreaterThan(0);
    const providers = new Set(loaded.map(([version, entry]) => `${entry.from}@${version}`));
    expect([...providers], `${lib} providers`).toHaveLength(1);
  }
});

test('the page names the remote versions it runs, on <html data-remotes> and in one console line', async ({
  page,
}) => {
  const lines: string[] = [];
  page.on('console', (msg) => {
    if (msg.text().startsWith('[remotes] ')) lines.push(msg.text());
  });
  await page.goto('/');
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  // Served from each build's root here: no release in their addresses (remote-version.ts).
  const versions = 'storefront@unversioned auth@unversioned dashboard@unversioned';
  await expect(page.locator('html')).toHaveAttribute('data-remotes', versions);
  expect(lines).toEqual([`[remotes] ${versions}`]);
});

test('with the dashboard remote down, home still renders and /dashboard offers Retry', async ({ page }) => {
  // Every request to the dashboard's origin is refused, as when the dashboard team's server is
  // stopped. (Its address is in the page as well as in /config.json: refused at the network, not
  // by rewriting the config.)
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { dashboard: string };
  };
  await page.route(`${config.remotes.dashboard}**`, (route) => route.abort('connectionrefused'));
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);
  await page.goto('/');
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  // The failure is reported to the API once, naming the remote and the version it was asked for.
  const reports: unknown[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/client-errors')) {
      reports.push(req.postDataJSON());
    }
  });
  const reported = page.waitForResponse(
    (res) => res.request().method() === 'POST' && new URL(res.url()).pathname.endsWith('/client-errors'),
  );
  await page.goto('/dashboard');
  const alert = page.getByRole('alert').filter({ hasText: 'The dashboard is unavailable right now.' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  expect((await reported).status()).toBe(201);
  expect(reports).toEqual([
    expect.objectContaining({
      remote: 'dashboard',
      version: 'unversioned',
      url: expect.stringContaining('/dashboard'),
    }),
  ]);
  // The frame around it still works.
  await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
});

test('Retry loads a remote that has come back', async ({ page }) => {
  // The dashboard's server refuses connections at first, then comes back.
  let dashboardDown = true;
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { dashboard: string };
  };
  await page.route(`${config.remotes.dashboard}**`, (route) =>
    dashboardDown ? route.abort('connectionrefused') : route.continue(),
  );
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);
  await page.goto('/dashboard');
  const alert = page.getByRole('alert').filter({ hasText: 'The dashboard is unavailable right now.' });
  await expect(alert).toBeVisible();
  dashboardDown = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(alert).toBeHidden();
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
});

/**
 * Hands the shell's chunk of the shared store kit (the one that defines the session's actions) to
 * `store`, with its response already fetched; every other chunk of the shell goes through as is.
 */
async function routeStoreChunk(
  page: Page,
  baseURL: string | undefined,
  store: (route: Route, res: APIResponse, body: string) => Promise<void>,
) {
  const shell = new URL(baseURL ?? '').origin;
  await page.route(
    (url) => url.origin === shell && /^\/\d+\.[0-9a-f]+\.js$/.test(url.pathname),
    async (route) => {
      const res = await route.fetch();
      const body = await res.text();
      if (body.includes('session/restoreRequested')) return store(route, res, body);
      return route.fulfill({ response: res, body });
    },
  );
}

test('when the store’s code does not arrive, the frame stays, pages say so, and Retry recovers', async ({
  page,
  baseURL,
}) => {
  // The shell loads the store after the home page's first screen. Refuse the store kit's chunk
  // until the "network" comes back.
  let storeDown = true;
  await routeStoreChunk(page, baseURL, (route, res, body) =>
    storeDown ? route.abort('connectionrefused') : route.fulfill({ response: res, body }),
  );
  await page.goto('/');
  // The first screen needs no store: the hero stays, the sections below it say what is missing.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Motorcycle parts in bulk, straight from stock',
  );
  await expect(page.getByRole('alert').filter({ hasText: 'The parts could not be loaded.' })).toBeVisible();
  await expect(page.getByTestId('part-card')).toHaveCount(0);

  // The top bar still works, and a page that needs the store says so instead of going blank.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reviews' }).click();
  await expect(page).toHaveURL(/\/reviews$/);
  const shopDown = page.getByRole('alert').filter({ hasText: 'The shop is unavailable right now.' });
  await expect(shopDown).toBeVisible();

  // Code that failed to arrive stays failed in the page, so Retry loads the page again.
  storeDown = false;
  await shopDown.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
});

test('a remote on its own origin (the storefront standalone) has the shop’s photos and styles', async ({
  page,
}) => {
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { storefront: string };
    shellUrl: string;
  };
  const broken: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'image' && !r.ok()) broken.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(config.remotes.storefront);
  const card = page.getByTestId('part-card').first();
  await expect(card).toBeVisible();
  // Root-relative catalogue photos load from the shell, where they live.
  const photo = card.getByRole('img');
  await expect(photo).toHaveAttribute('src', new RegExp(`^${config.shellUrl}images/`));
  await photo.scrollIntoViewIfNeeded();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // The shell's shared building blocks (.btn) are styled here too.
  const button = page.getByRole('link', { name: 'Get Started' });
  await expect(button).toHaveCSS('background-color', 'rgb(179, 38, 30)');
  expect(broken, 'no image failed to load').toEqual([]);
});

test('a cold load of a signed-in page fetches its code while the store is still on its way', async ({
  page,
  baseURL,
}) => {
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { storefront: string; dashboard: string };
  };
  const [part] = (await (await page.request.get(`${API_URL}/parts?limit=1`)).json()) as {
    _id: string;
    name: string;
  }[];
  if (!part) throw new Error('the demo catalogue has no part');
  // The store kit's chunk is held back until the test lets it through.
  let storeRequested = false;
  let release = () => {};
  await routeStoreChunk(page, baseURL, async (route, res, body) => {
    storeRequested = true;
    await new Promise<void>((resolve) => (release = resolve));
    await route.fulfill({ response: res, body });
  });
  const remoteCode: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script' && !req.url().endsWith('/remoteEntry.js')) remoteCode.push(req.url());
  });
  await seedSession(page, DEMO.rider.email, DEMO.rider.password);

  for (const { path, remote, heading } of [
    { path: `/purchase/${part._id}`, remote: config.remotes.storefront, heading: part.name },
    { path: '/dashboard', remote: config.remotes.dashboard, heading: 'My Profile' },
  ]) {
    storeRequested = false;
    remoteCode.length = 0;
    // Not until `load`: the held chunk keeps the page loading.
    await page.goto(path, { waitUntil: 'commit' });
    await expect.poll(() => storeRequested).toBe(true);
    // The page's own code is asked for while the store is still held back…
    await expect.poll(() => remoteCode.filter((url) => url.startsWith(remote)).length).toBeGreaterThan(0);
    // …before React has rendered anything (the static first screen is still there, and shows the
    // remote's prerendered stand-in with the page's heading)…
    await expect(page.locator('#root > .first-screen'), 'React has not rendered yet').toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('#root [data-prerendered] h1:visible')).toHaveText(heading);
    // …and once the store arrives the page itself shows.
    release();
    await expect(page.locator('#root > .first-screen')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('#root [data-prerendered]')).toHaveCount(0);
  }
});
