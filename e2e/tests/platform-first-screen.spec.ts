import { expect, test, type Page } from '@playwright/test';
import type { Part, Review } from '@motoparts/contracts';
import { api } from '../support/api';
import { createTestPart, deletePart, riderSession } from './storefront-helpers';

/**
 * Home LCP (docs/architecture.md#performance-and-benchmarks): index.html carries the first
 * screen (the shell's top bar and styles, and the storefront's prerendered hero through a
 * server-side include), so the largest paint does not wait for JavaScript. Checked on what is
 * deterministic: what the HTML holds, what paints with every script blocked, and that React
 * renders the very same markup afterwards.
 */
const HERO_HEADING = 'Motorcycle parts in bulk, straight from stock';

/** Loads a page with every script request refused: only the HTML (and its inline parts) paint. */
async function gotoWithoutScripts(page: Page, path: string) {
  await page.route(/\.js(\?|$)/, (route) => route.abort());
  await page.goto(path);
}

/** For requests held back by a test: `held` settles once `release()` is called. */
function holdBack(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  return { held, release };
}

/** The hero's markup as the DOM holds it. */
const heroHtml = (page: Page) => page.locator('section.hero').evaluate((el) => el.outerHTML);

/**
 * Where the page's largest contentful paint is: "inside: …" when its element lies within
 * `container`, "outside: …" otherwise. Takes the latest candidate that still names its element
 * (Chromium reports `element: null` for a node it no longer holds), described so that a failure
 * says what it was.
 */
async function largestPaint(page: Page, container: string): Promise<string> {
  return page.evaluate(
    (selector) =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
          const el = entries.filter((e) => e.element).at(-1)?.element;
          resolve(
            el
              ? `${el.closest(selector) ? 'inside' : 'outside'}: <${el.tagName.toLowerCase()} class="${el.className}"> ${el.textContent ?? ''}`
              : `no element among ${entries.length} candidates`,
          );
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
    container,
  );
}

/** Sums the page's layout shifts from its first byte on; read the total with `layoutShiftTotal`. */
const recordLayoutShifts = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number })[]) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
const layoutShiftTotal = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

test('index.html carries the top bar and the storefront hero, includes resolved', async ({ request }) => {
  const res = await request.get('/');
  expect(res.headers()['cache-control']).toContain('no-cache');
  const html = await res.text();
  expect(html).toContain(HERO_HEADING);
  expect(html).toMatch(/data-prerendered="?storefront\/HomePage/);
  expect(html).toMatch(/<header class="?top-bar/);
  expect(html, 'no server-side include directive reaches the browser').not.toContain('<!--#');
  // The same document answers deep links; the hero is hidden there before any script runs.
  expect(await (await request.get('/blogs')).text()).toContain(HERO_HEADING);
});

test('home paints its hero and top bar with every script blocked; the hero is the LCP', async ({ page }) => {
  await gotoWithoutScripts(page, '/');
  await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Home', 'Blogs', 'Reviews', 'My Portfolio', 'Login']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  expect(
    await largestPaint(page, '.hero'),
    'the largest contentful paint is an element of the prerendered hero',
  ).toMatch(/^inside: /);
});

test('the prerendered hero shows only on the routes that render the home page', async ({ page }) => {
  for (const path of ['/home', '/purchase']) {
    await gotoWithoutScripts(page, path);
    await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeVisible();
  }
  for (const path of ['/blogs', '/dashboard', '/purchase/abc', '/no-such-page']) {
    await gotoWithoutScripts(page, path);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeHidden();
  }
});

test('a returning signed-in visitor does not see the static Login link flash', async ({ page }) => {
  await page.addInitScript(() =>
    localStorage.setItem('motoparts.sessionUser', JSON.stringify({ email: 'r@x.test', displayName: 'R' })),
  );
  await gotoWithoutScripts(page, '/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Blogs', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Login', exact: true })).toBeHidden();
});

test('React renders exactly the prerendered hero markup, which stays until the page replaces it', async ({
  page,
  context,
}) => {
  await gotoWithoutScripts(page, '/');
  const prerendered = await heroHtml(page);
  await page.unroute(/\.js(\?|$)/);

  // Hold the storefront's home chunk back: meanwhile the shell has booted and shows the same
  // hero as the home route's loading state, not "Loading...".
  const { held, release } = holdBack();
  const fresh = await context.newPage();
  await fresh.route(/:\/\/[^/]+\/(?!main\.)[^/]*\.[0-9a-f]{10}\.js$/, async (route) => {
    if (new URL(route.request().url()).port === new URL(page.url()).port) return route.continue();
    await held;
    await route.continue();
  });
  await fresh.goto('/');
  await expect(fresh.locator('#root > .first-screen'), 'React replaced the static markup').toHaveCount(0);
  await expect(fresh.getByRole('heading', { name: HERO_HEADING })).toBeVisible();
  await expect(fresh.getByText('Loading...')).toHaveCount(0);
  await expect(fresh.locator('#parts-heading'), 'the storefront page itself is not there yet').toHaveCount(0);
  expect(await heroHtml(fresh), 'the loading state is the prerendered hero').toBe(prerendered);

  // Its links navigate in-app even before the storefront has loaded (no document reload).
  await fresh.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await fresh.getByRole('link', { name: 'Get Started' }).click();
  await expect(fresh).toHaveURL(/\/login$/);
  expect(await fresh.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  );

  release();
  await expect(fresh.getByRole('button', { name: /^login$/i })).toBeVisible();
  await fresh.goBack();
  await expect(fresh.getByTestId('part-card').first()).toBeVisible();
  expect(await heroHtml(fresh), 'the storefront renders the same hero as the HTML').toBe(prerendered);
});

/**
 * The shell's server includes /config.json in the page's head (a JSON data block): the inline
 * script and the app read it there, and fetch it only where no server filled the block.
 */
test.describe('the site’s config in the page', () => {
  /** Counts the page's requests for /config.json. */
  const countConfigRequests = (page: Page) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/config.json') asked.push(request.url());
    });
    return asked;
  };

  test('a cold load of any page reads it from the HTML: no request for /config.json', async ({ page }) => {
    const asked = countConfigRequests(page);
    const html = await (await page.request.get('/purchase/x')).text();
    const config = await (await page.request.get('/config.json')).json();
    const block = /<script type="application\/json" id="site-config">([^<]*)<\/script>/.exec(html);
    expect(JSON.parse(block?.[1] ?? 'null'), 'the page carries /config.json').toEqual(config);

    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await riderSession(page);
    // Each a cold start of the app, whose remotes read the same config.
    for (const [path, ready] of [
      ['/parts', page.getByTestId('part-card').first()],
      ['/dashboard', page.getByRole('form', { name: 'Edit profile' })],
    ] as const) {
      await page.goto(path);
      await expect(ready).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(asked, 'requests for /config.json').toEqual([]);
  });

  test('a server that does not include it: the app asks for /config.json once and starts', async ({
    page,
  }) => {
    const asked = countConfigRequests(page);
    // As a server that does not resolve includes leaves it: the directive, not JSON. Changed as
    // the parser inserts it, before the inline script after it runs.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        const block = document.getElementById('site-config');
        if (!block) return;
        block.textContent = '<!--# include virtual="/config.json" -->';
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await riderSession(page);
    await page.goto('/dashboard');
    await expect(page.getByRole('form', { name: 'Edit profile' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked, 'requests for /config.json').toHaveLength(1);
  });
});

/**
 * A signed-in visitor's cold /purchase/:id: the storefront's prerendered top of the part column
 * (photo, category, name) is in the HTML, hidden, and the shell's inline script fills it with the
 * part (fetched as soon as the config names the API), so the name, that page's largest paint,
 * does not wait for the site's code. Without a session, or for a part the API does not have, it
 * stays hidden.
 */
test.describe('the purchase page’s part before the page’s code', () => {
  let part: Part;
  test.beforeAll(async () => {
    part = await createTestPart(250);
  });
  test.afterAll(async () => {
    await deletePart(part._id);
  });

  const photo = (page: Page) => page.locator('.purchase-product img');
  const name = (page: Page) => page.locator('.purchase-product h1');
  const category = (page: Page) => page.locator('.purchase-product .part-category');
  const boxes = async (page: Page) => ({
    photo: await photo(page).boundingBox(),
    category: await category(page).boundingBox(),
    name: await name(page).boundingBox(),
  });

  test('paints with every script file blocked, from the HTML and its inline script alone; it is the LCP', async ({
    page,
  }) => {
    await riderSession(page);
    await gotoWithoutScripts(page, `/purchase/${part._id}`);
    await expect(photo(page)).toBeVisible();
    await expect(photo(page)).toHaveAttribute('src', part.img);
    await expect(photo(page)).toHaveAttribute('alt', part.name);
    await expect(category(page)).toHaveText('Parts', { ignoreCase: true });
    await expect(name(page)).toHaveText(part.name);
    await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeHidden();
    // The name: Chromium does not count a drawing with as few bytes per pixel as ours.
    expect(
      await largestPaint(page, '[data-prerendered]'),
      'the largest contentful paint is the filled stand-in',
    ).toMatch(/^inside: /);
  });

  test('stays hidden without a session, and for a part the API does not have', async ({ page, context }) => {
    await gotoWithoutScripts(page, `/purchase/${part._id}`);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    // Given time to fetch: there is nothing to fetch without a session.
    await page.waitForTimeout(500);
    await expect(photo(page)).toBeHidden();
    await expect(name(page)).toBeHidden();

    const signedIn = await context.newPage();
    await riderSession(signedIn);
    await gotoWithoutScripts(signedIn, '/purchase/0123456789abcdef01234567');
    await expect(signedIn.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await signedIn.waitForTimeout(500);
    await expect(photo(signedIn)).toBeHidden();
    await expect(name(signedIn)).toBeHidden();
  });

  test('the page replaces it with the same box and nothing moves', async ({ page, context }) => {
    await riderSession(page);
    await gotoWithoutScripts(page, `/purchase/${part._id}`);
    await expect(name(page)).toBeVisible();
    const before = await boxes(page);

    const fresh = await context.newPage();
    await recordLayoutShifts(fresh);
    await fresh.goto(`/purchase/${part._id}`);
    await expect(fresh.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
    await expect(fresh.getByTestId('order-total')).toBeVisible();
    await expect(photo(fresh)).toHaveCount(1);
    await expect(fresh.locator('.purchase-product .badge')).toBeVisible();
    expect(await boxes(fresh), 'photo, category and name where the stand-in had them').toEqual(before);
    expect(await layoutShiftTotal(fresh)).toBe(0);
  });

  test('the page starts from the part the inline script fetched: asked for once', async ({ page }) => {
    await riderSession(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith(`/parts/${part._id}`)) {
        asked.push(request.headers()['authorization'] ? 'store' : 'inline script');
      }
    });
    await page.goto(`/purchase/${part._id}`);
    await expect(page.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
    await expect(page.getByTestId('order-total')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked, 'one request for the part, the inline script’s').toEqual(['inline script']);
  });

  test('an answer that arrives after the shell took over fills nothing', async ({ page }) => {
    await riderSession(page);
    // Hold the inline script's request (it carries no Authorization header, the page's does)
    // until the page has rendered from its own request.
    const { held, release } = holdBack();
    let early = 0;
    await page.route(`**/parts/${part._id}`, async (route) => {
      if (route.request().headers()['authorization']) return route.continue();
      early += 1;
      await held;
      await route.continue();
    });
    await page.goto(`/purchase/${part._id}`);
    await expect(page.getByTestId('order-total')).toBeVisible();
    expect(early, 'the inline script asked for the part').toBe(1);
    release();
    await page.waitForTimeout(500);
    await expect(photo(page)).toHaveCount(1);
    await expect(name(page)).toHaveCount(1);
    await expect(page.locator('[data-prerendered]')).toHaveCount(0);
  });
});

/**
 * A signed-in visitor's cold /dashboard: the dashboard's prerendered frame (menu title, My
 * Profile's item, heading and identity card) is in the HTML, hidden, and the shell's inline
 * script fills the name and email from the stored session once the document is parsed, so the
 * heading, that page's largest paint, does not wait for the dashboard's code.
 */
test.describe('the dashboard’s frame before its code', () => {
  const heading = (page: Page) => page.getByRole('heading', { level: 1, name: 'My Profile' });
  const card = (page: Page) => page.locator('.dash-identity');
  const boxes = async (page: Page) => ({
    heading: await heading(page).boundingBox(),
    card: await card(page).boundingBox(),
    menuTitle: await page.locator('.dash-menu-title').boundingBox(),
  });

  test('paints with every script file blocked, with the session’s name and email; it is the LCP', async ({
    page,
  }) => {
    await riderSession(page);
    await gotoWithoutScripts(page, '/dashboard');
    await expect(heading(page)).toBeVisible();
    await expect(card(page)).toHaveText(/Name\s+Road Rider\s*Email\s+rider@motoparts\.test/);
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Profile' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(
      await largestPaint(page, '[data-prerendered]'),
      'the largest contentful paint is the filled stand-in',
    ).toMatch(/^inside: /);
  });

  test('shows while the shell’s entry is still downloading', async ({ page }) => {
    await riderSession(page);
    // Held until the stand-in shows: DOMContentLoaded, which waits for this deferred script,
    // would never come meanwhile; the document being parsed is enough.
    const { held, release } = holdBack();
    await page.route(/\/main\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/dashboard', { waitUntil: 'commit' });
    try {
      await expect(heading(page)).toBeVisible();
      await expect(card(page)).toContainText('rider@motoparts.test');
      expect(await page.evaluate(() => document.readyState)).toBe('interactive');
    } finally {
      release();
    }
    await expect(page.getByRole('form', { name: 'Edit profile' })).toBeVisible();
  });

  test('stays hidden without a session, on the dashboard’s other pages, and on a phone', async ({
    page,
    context,
  }) => {
    await gotoWithoutScripts(page, '/dashboard');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(heading(page)).toBeHidden();

    const signedIn = await context.newPage();
    await riderSession(signedIn);
    await gotoWithoutScripts(signedIn, '/dashboard/myOrder');
    await expect(signedIn.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(heading(signedIn)).toBeHidden();

    // There the menu sits above the page, as tall as the role makes it.
    await signedIn.setViewportSize({ width: 400, height: 800 });
    await gotoWithoutScripts(signedIn, '/dashboard');
    await expect(signedIn.locator('.top-bar')).toBeVisible();
    await expect(heading(signedIn)).toBeHidden();
  });

  test('elsewhere its stylesheet is never fetched; the dashboard brings the same rules when opened', async ({
    page,
  }) => {
    await riderSession(page);
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_fragments/dashboard/')) fetched.push(request.url());
    });
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(fetched, 'a page without the stand-in asks for none of its files').toEqual([]);
    await expect(page.locator('#dashboard-first-screen-styles')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(heading(page)).toBeVisible();
    await expect(page.locator('.dash-layout')).toHaveCSS('display', 'grid');
    await expect(page.locator('.dash-menu')).toHaveCSS('position', 'sticky');
  });

  test('while My Profile’s code is still coming, the frame shows its top from the session, not Loading...', async ({
    page,
  }) => {
    await riderSession(page);
    // My Profile's chunk (the only script with its form) is held until released.
    const { held, release } = holdBack();
    let holding = 0;
    await page.route(/\.js$/, async (route) => {
      const response = await route.fetch();
      if ((await response.text()).includes('Edit profile')) {
        holding += 1;
        await held;
      }
      await route.fulfill({ response });
    });
    await page.goto('/');
    await expect(page.getByTestId('part-card').first()).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    try {
      // The dashboard's own frame (the role's items are not in the HTML's stand-in).
      const menu = page.getByRole('navigation', { name: 'Dashboard' });
      await expect(menu.getByRole('link', { name: 'My Order' })).toBeVisible();
      await expect.poll(() => holding, 'My Profile’s chunk was asked for and held').toBe(1);
      await expect(heading(page)).toBeVisible();
      await expect(card(page)).toHaveText(/Name\s+Road Rider\s*Email\s+rider@motoparts\.test/);
      await expect(page.getByText('Loading...')).toHaveCount(0);
      await expect(page.getByRole('form', { name: 'Edit profile' })).toHaveCount(0);
    } finally {
      release();
    }
    await expect(page.getByRole('form', { name: 'Edit profile' })).toBeVisible();
    await expect(heading(page)).toHaveCount(1);
  });

  test('the dashboard replaces it with the same boxes, adding the role’s menu items, and nothing moves', async ({
    page,
    context,
  }) => {
    await riderSession(page);
    await gotoWithoutScripts(page, '/dashboard');
    await expect(heading(page)).toBeVisible();
    const before = await boxes(page);

    const fresh = await context.newPage();
    await recordLayoutShifts(fresh);
    await fresh.goto('/dashboard');
    const menu = fresh.getByRole('navigation', { name: 'Dashboard' });
    await expect(menu.getByRole('link', { name: 'My Order' })).toBeVisible();
    await expect(fresh.getByRole('form', { name: 'Edit profile' })).toBeVisible();
    await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
    await expect(heading(fresh)).toHaveCount(1);
    expect(await boxes(fresh), 'heading, card and menu title where the stand-in had them').toEqual(before);
    expect(await layoutShiftTotal(fresh)).toBe(0);
  });
});

/**
 * The pages that need no data, the Q&A page and the portfolio: the storefront prerenders them
 * whole (prerender/pages.html), the shell shows the one its route names, and the page replaces
 * it with the very same markup.
 */
test.describe('the static pages’ first screens', () => {
  const STATIC_PAGES = [
    { path: '/blogs', module: 'storefront/BlogsPage', heading: 'Questions and answers' },
    { path: '/myPortfolio', module: 'storefront/PortfolioPage', heading: 'Nadia Karim' },
  ];
  /**
   * The page's markup, canonical: each element with its attributes in name order (React sets an
   * image's src last in the browser) and without the stand-in's mark, and the text.
   */
  const pageMarkup = (page: Page, selector: string) =>
    page.locator(selector).evaluate((root) => {
      const walk = (node: Node): string => {
        if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
        if (!(node instanceof Element)) return '';
        const attributes = Array.from(node.attributes)
          .filter((a) => a.name !== 'data-prerendered')
          .map((a) => ` ${a.name}="${a.value}"`)
          .sort()
          .join('');
        return `<${node.tagName}${attributes}>${Array.from(node.childNodes).map(walk).join('')}</${node.tagName}>`;
      };
      return walk(root);
    });

  for (const { path, module, heading } of STATIC_PAGES) {
    test(`${path} paints with every script blocked; it is the LCP; it shows on no other route`, async ({
      page,
    }) => {
      await gotoWithoutScripts(page, path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeHidden();
      expect(
        await largestPaint(page, `[data-prerendered="${module}"]`),
        'the largest contentful paint is an element of the prerendered page',
      ).toMatch(/^inside: /);
      for (const other of ['/', ...STATIC_PAGES.map((p) => p.path).filter((p) => p !== path), '/parts']) {
        await gotoWithoutScripts(page, other);
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeHidden();
      }
    });

    test(`${path}: the page renders the same markup as the HTML, and nothing moves`, async ({
      page,
      context,
    }) => {
      await gotoWithoutScripts(page, path);
      const prerendered = await pageMarkup(page, `[data-prerendered="${module}"]`);

      const fresh = await context.newPage();
      await recordLayoutShifts(fresh);
      await fresh.goto(path);
      await expect(fresh.locator('#root > .first-screen'), 'React replaced the static markup').toHaveCount(0);
      // The page itself is there once the stand-in's mark is gone.
      await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
      await expect(fresh.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(fresh.getByText('Loading...')).toHaveCount(0);
      expect(await pageMarkup(fresh, 'main .page'), 'the storefront renders what the HTML held').toBe(
        prerendered,
      );
      expect(await layoutShiftTotal(fresh)).toBe(0);
    });
  }
});

/**
 * The reviews page is prerendered too (prerender/pages.html): its heading and intro, and the
 * reviews' list, which the shell's inline script fills from GET /review before any of the app's
 * scripts (the reviews are the page's largest paint); the page renders the same list from the
 * answer the script handed to the store.
 */
test.describe('the reviews page’s first screen', () => {
  const HEADING = 'Reviews';
  const head = (page: Page) => page.locator('main .page-head:visible');

  test('paints with every script blocked and shows on no other route', async ({ page }) => {
    await gotoWithoutScripts(page, '/reviews');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect(page.getByText('What workshops, dealers and riders say about their orders.')).toBeVisible();
    await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeHidden();
    for (const other of ['/', '/blogs', '/parts', '/login']) {
      await gotoWithoutScripts(page, other);
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeHidden();
    }
  });

  test('the reviews paint with every script file blocked, as the page shows them', async ({
    page,
    context,
  }) => {
    const reviews = await api<Review[]>('GET', '/review');
    const [first] = reviews;
    if (!first) throw new Error('the demo data has no review');
    const cards = (p: Page) => p.locator('main .testimonials:visible [data-testid=testimonial]');
    await gotoWithoutScripts(page, '/reviews');
    await expect(cards(page)).toHaveCount(reviews.length);
    await expect(cards(page).first().locator('blockquote')).toHaveText(first.review);
    const prerendered = await cards(page).evaluateAll((els) =>
      els.map((el) => ({ text: (el as HTMLElement).innerText, box: el.getBoundingClientRect().toJSON() })),
    );

    const fresh = await context.newPage();
    await fresh.goto('/reviews');
    await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
    await expect(cards(fresh)).toHaveCount(reviews.length);
    const rendered = await cards(fresh).evaluateAll((els) =>
      els.map((el) => ({ text: (el as HTMLElement).innerText, box: el.getBoundingClientRect().toJSON() })),
    );
    expect(rendered).toEqual(prerendered);
  });

  test('the page renders the same head where the HTML had it, and nothing moves', async ({
    page,
    context,
  }) => {
    await gotoWithoutScripts(page, '/reviews');
    const html = await head(page).evaluate((el) => el.outerHTML);
    const box = await head(page).boundingBox();

    const fresh = await context.newPage();
    await recordLayoutShifts(fresh);
    await fresh.goto('/reviews');
    await expect(fresh.getByTestId('testimonial').first()).toBeVisible();
    await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
    await expect(fresh.locator('main .page-head')).toHaveCount(1);
    expect(await head(fresh).evaluate((el) => el.outerHTML)).toBe(html);
    expect(await head(fresh).boundingBox()).toEqual(box);
    expect(await layoutShiftTotal(fresh)).toBe(0);
  });
});

/**
 * A part's public page (/parts/:id), for any visitor: the same fill as the purchase page's column
 * (the shell's inline script, from the part it fetches), here photo, category, name and text.
 */
test.describe('the part page’s first screen', () => {
  let part: Part;
  test.beforeAll(async () => {
    part = await createTestPart(250);
  });
  test.afterAll(async () => {
    await deletePart(part._id);
  });

  const standIn = (page: Page) => page.locator('[data-prerendered="storefront/PartPage"]');
  const photo = (page: Page) => page.locator('.part-page img');
  const name = (page: Page) => page.locator('.part-page h1');
  const category = (page: Page) => page.locator('.part-page .part-category');
  const text = (page: Page) => page.locator('.part-page h1 + p');
  const boxes = async (page: Page) => ({
    photo: await photo(page).boundingBox(),
    category: await category(page).boundingBox(),
    name: await name(page).boundingBox(),
    text: await text(page).boundingBox(),
  });

  test('paints signed out with every script file blocked; it is the LCP; hidden elsewhere', async ({
    page,
  }) => {
    await gotoWithoutScripts(page, `/parts/${part._id}`);
    await expect(name(page)).toHaveText(part.name);
    await expect(photo(page)).toHaveAttribute('src', part.img);
    await expect(photo(page)).toHaveAttribute('alt', part.name);
    await expect(category(page)).toHaveText('Parts', { ignoreCase: true });
    await expect(text(page)).toHaveText(part.text);
    expect(await largestPaint(page, '[data-prerendered]'), 'the LCP is the filled stand-in').toMatch(
      /^inside: /,
    );

    // Another route shows neither part stand-in, and the purchase page's stays hidden here.
    await expect(page.locator('[data-prerendered="storefront/PurchasePage"]')).toBeHidden();
    await gotoWithoutScripts(page, '/parts');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.waitForTimeout(500);
    await expect(standIn(page)).toBeHidden();
    await gotoWithoutScripts(page, '/parts/0123456789abcdef01234567');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.waitForTimeout(500);
    await expect(standIn(page)).toBeHidden();
  });

  test('the page replaces it with the same boxes, asks for the part once, and nothing moves', async ({
    page,
    context,
  }) => {
    await gotoWithoutScripts(page, `/parts/${part._id}`);
    await expect(name(page)).toBeVisible();
    const before = await boxes(page);

    const fresh = await context.newPage();
    const asked: string[] = [];
    fresh.on('request', (request) => {
      if (
        new URL(request.url()).pathname.endsWith(`/parts/${part._id}`) &&
        request.resourceType() === 'fetch'
      ) {
        asked.push(request.url());
      }
    });
    await recordLayoutShifts(fresh);
    await fresh.goto(`/parts/${part._id}`);
    await expect(fresh.locator('.part-page .badge')).toBeVisible();
    await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
    expect(await boxes(fresh), 'photo, category, name and text where the stand-in had them').toEqual(before);
    expect(await layoutShiftTotal(fresh)).toBe(0);
    await fresh.waitForLoadState('networkidle');
    expect(asked, 'one request for the part, the inline script’s').toHaveLength(1);
  });
});

/**
 * The sign-in pages: the auth remote prerenders each (prerender/auth.html: heading, intro and the
 * form, from the pages themselves), the shell's inline script links the remote's stylesheet on
 * that page's route only and shows the stand-in once it has loaded, and the page replaces it
 * with the same boxes.
 */
test.describe('the sign-in pages’ first screens', () => {
  const SIGN_IN_PAGES = [
    { path: '/login', module: 'auth/LoginPage', heading: 'Login', submit: 'Login' },
    { path: '/signup', module: 'auth/SignupPage', heading: 'Sign Up', submit: 'Sign Up' },
  ];
  const boxes = (page: Page) =>
    page.locator('main .auth-card').evaluate((card) =>
      ['h1', '.auth-lead', 'form', 'input', '.auth-submit', '.google-button', '.auth-switch'].map((s) => {
        const r = card.querySelector(s)?.getBoundingClientRect();
        return r ? [s, r.x, r.y, r.width, r.height] : [s];
      }),
    );

  for (const { path, module, heading, submit } of SIGN_IN_PAGES) {
    test(`${path} paints with every script file blocked; it is the LCP; its stylesheet only here`, async ({
      page,
      context,
    }) => {
      const sheets: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/_fragments/auth/')) sheets.push(new URL(request.url()).pathname);
      });
      await gotoWithoutScripts(page, path);
      const standIn = page.locator(`[data-prerendered="${module}"]`);
      await expect(standIn.locator('h1')).toHaveText(heading);
      await expect(standIn.locator('h1')).toBeVisible();
      await expect(standIn.locator('.auth-submit')).toHaveText(submit);
      // A picture of the page until the page takes over: its buttons would do nothing, and
      // nothing typed into it would survive.
      await expect(standIn).toHaveAttribute('inert', '');
      // The other sign-in page's stand-in is gone, not only hidden: no second form beside this one.
      await expect(page.locator('[data-prerendered^="auth/"]')).toHaveCount(1);
      await expect(page.getByRole('heading', { name: HERO_HEADING })).toBeHidden();
      expect(
        await largestPaint(page, `[data-prerendered="${module}"]`),
        'the largest contentful paint is an element of the prerendered page',
      ).toMatch(/^inside: /);
      expect(sheets).toEqual(['/_fragments/auth/prerender/first-screen.css']);

      const elsewhere = await context.newPage();
      elsewhere.on('request', (request) => {
        if (request.url().includes('/_fragments/auth/')) sheets.push(new URL(request.url()).pathname);
      });
      sheets.length = 0;
      for (const other of ['/', '/blogs', '/reviews', '/parts']) {
        await gotoWithoutScripts(elsewhere, other);
        await expect(elsewhere.getByRole('navigation', { name: 'Main' })).toBeVisible();
        await expect(elsewhere.locator('[data-prerendered^="auth/"]')).toHaveCount(0);
      }
      expect(sheets, 'no other page fetches the sign-in pages’ stylesheet').toEqual([]);
    });

    test(`${path}: not for a visitor with a stored session, whom the page sends on`, async ({ page }) => {
      await riderSession(page);
      await gotoWithoutScripts(page, path);
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await page.waitForTimeout(500);
      await expect(page.locator(`[data-prerendered="${module}"]`)).toBeHidden();
    });

    test(`${path}: the page renders the same boxes, and nothing moves`, async ({ page, context }) => {
      await gotoWithoutScripts(page, path);
      await expect(page.locator(`[data-prerendered="${module}"] h1`)).toBeVisible();
      const before = await boxes(page);

      const fresh = await context.newPage();
      await recordLayoutShifts(fresh);
      await fresh.goto(path);
      await expect(fresh.locator('#root > .first-screen'), 'React replaced the static markup').toHaveCount(0);
      await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
      await expect(fresh.locator('main .auth-page')).not.toHaveAttribute('inert');
      await expect(fresh.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(await boxes(fresh), 'the page’s boxes where the stand-in had them').toEqual(before);
      expect(await layoutShiftTotal(fresh)).toBe(0);
    });
  }
});

/**
 * The catalogue's top (heading, search box and filters at their defaults) is prerendered too
 * (prerender/pages.html); the results below are data, so the page adds them under it.
 */
test.describe('the catalogue’s first screen', () => {
  const HEADING = 'All parts, tools and gear';
  const boxes = (page: Page) =>
    page.locator('main .catalogue').evaluate((top) =>
      ['.section-kicker', 'h1', 'form', 'input[type=search]', 'select', '.catalogue-check'].map((s) => {
        const r = top.querySelector(s)?.getBoundingClientRect();
        return r ? [s, r.x, r.y, r.width, r.height] : [s];
      }),
    );

  test('paints with every script blocked and shows on no other route', async ({ page }) => {
    await gotoWithoutScripts(page, '/parts');
    const standIn = page.locator('[data-prerendered="storefront/CataloguePage"]');
    await expect(standIn.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect(standIn.getByRole('search', { name: 'Search and filter the catalogue' })).toBeVisible();
    await expect(standIn.locator('form')).toHaveAttribute('inert', '');
    for (const other of ['/', '/reviews', '/login']) {
      await gotoWithoutScripts(page, other);
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeHidden();
    }
  });

  test('the page renders the same boxes, and nothing moves', async ({ page, context }) => {
    await gotoWithoutScripts(page, '/parts');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    const before = await boxes(page);

    const fresh = await context.newPage();
    await recordLayoutShifts(fresh);
    await fresh.goto('/parts');
    await expect(fresh.getByTestId('part-card').first()).toBeVisible();
    await expect(fresh.locator('[data-prerendered]')).toHaveCount(0);
    await expect(fresh.locator('main form')).not.toHaveAttribute('inert');
    expect(await boxes(fresh), 'the page’s boxes where the stand-in had them').toEqual(before);
    expect(await layoutShiftTotal(fresh)).toBe(0);
  });
});
