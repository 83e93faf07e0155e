import { expect, test, type Page } from '@playwright/test';
import type { Cart, Checkout, Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { API_URL } from '../support/env';
import {
  adminSession,
  createTestPart,
  deletePart,
  hasHorizontalScroll,
  useStoredSession,
} from './storefront-helpers';
import { seriousViolations } from '../support/page-checks';

/**
 * docs/product.md, Cart: Add to cart on the purchase page and the catalogue's cards, the top
 * bar's count, the cart page (the spec's stepper rules and messages, Remove, the delivery details)
 * and Checkout on to the dashboard's payment page for the checkout, by clicks, at desktop and
 * phone widths.
 */

/**
 * Who provided each loaded copy of `pkg` in the page's share scope (as platform-federation.spec.ts
 * reads it): one provider means one copy for the shell and every remote.
 */
async function providersOf(page: Page, pkg: string): Promise<string[]> {
  return page.evaluate((name) => {
    type Entry = { loaded?: boolean; from?: string };
    const fed = (globalThis as { __FEDERATION__?: { __SHARE__?: Record<string, unknown> } }).__FEDERATION__;
    const scopes = Object.values(fed?.__SHARE__ ?? {}) as Record<
      string,
      Record<string, Record<string, Entry>>
    >[];
    const found = new Set<string>();
    for (const host of scopes)
      for (const scope of Object.values(host))
        for (const [version, entry] of Object.entries(scope[name] ?? {}))
          if (entry.loaded) found.add(`${entry.from}@${version}`);
    return [...found];
  }, pkg);
}

const cartCount = (page: Page) => page.getByTestId('cart-count');
const card = (page: Page, part: Part) => page.getByTestId('part-card').filter({ hasText: part.name });

/** The catalogue showing only `part` (its name is unique to this run). */
async function catalogueWith(page: Page, part: Part) {
  await page.goto(`/parts?q=${encodeURIComponent(part.name)}`);
  await expect(card(page, part)).toBeVisible();
}

/**
 * The part as GET /parts/:id will answer once parts carry volume prices (`priceTiers`): the
 * real answer with tiers added, so the cart's hint is shown the way the API will feed it.
 */
async function withTiers(page: Page, part: Part, priceTiers: { fromQty: number; price: number }[]) {
  await page.route(`${API_URL}/parts/${part._id}`, async (route) => {
    const headers = { ...route.request().headers() };
    delete headers['if-none-match'];
    const response = await route.fetch({ headers });
    // Playwright hands the body decoded: its encoding and length no longer apply.
    const { 'content-encoding': _encoding, 'content-length': _length, ...kept } = response.headers();
    await route.fulfill({
      status: response.status(),
      headers: kept,
      json: { ...((await response.json()) as Part), priceTiers },
    });
  });
}

for (const width of [1280, 375]) {
  test.describe(`the cart at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    const run = `${Date.now()}-${width}`;
    let parts: Part[] = [];
    test.beforeEach(async () => {
      parts = [
        await createTestPart(103, `E2E Cart Chain ${run}`),
        await createTestPart(500, `E2E Cart Sprocket ${run}`),
        await createTestPart(500, `E2E Cart Lever ${run}`),
      ];
    });
    test.afterEach(async () => {
      for (const part of parts) await deletePart(part._id);
    });

    test('a customer adds three parts, sets a quantity, removes a line and checks out on to the payment page', async ({
      page,
    }) => {
      const [chain, sprocket, lever] = parts as [Part, Part, Part];
      const account = await emulatorSignUp(undefined, undefined, 'Cart Rider');
      const token = await useStoredSession(page, account, 'Cart Rider');
      await withTiers(page, sprocket, [{ fromQty: 200, price: 2.25 }]);

      // The purchase page: Add to cart beside Order now, with the stepper's quantity.
      await page.goto(`/purchase/${chain._id}`);
      await expect(cartCount(page)).toHaveText('0');
      await page.getByRole('button', { name: 'Increase' }).click();
      await expect(page.getByTestId('quantity')).toHaveText('101');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page.getByText(`Added to your cart: 101 pieces of ${chain.name}.`)).toBeVisible();
      await expect(cartCount(page)).toHaveText('1');
      // The page and its Order now are as they were.
      await expect(page.getByRole('button', { name: 'Order now' })).toBeEnabled();

      await page.goto(`/purchase/${sprocket._id}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page.getByText(`Added to your cart: 100 pieces of ${sprocket.name}.`)).toBeVisible();
      await expect(cartCount(page)).toHaveText('2');

      // A catalogue card: the part's minimum.
      await catalogueWith(page, lever);
      await card(page, lever)
        .getByRole('button', { name: `Add to cart: ${lever.name}` })
        .click();
      await expect(page.getByText(`Added to your cart: 100 pieces of ${lever.name}.`)).toBeVisible();
      await expect(cartCount(page)).toHaveText('3');

      // The top bar's link opens the cart.
      await page.getByRole('link', { name: 'Cart 3 lines' }).click();
      await expect(page).toHaveURL(/\/cart$/);
      await expect(page).toHaveTitle('Cart - MotoParts');
      await expect(page.getByRole('heading', { level: 1, name: 'Your cart' })).toBeVisible();
      const lines = page.getByTestId('cart-line');
      await expect(lines).toHaveCount(3);
      await expect(page.getByTestId('cart-total')).toHaveText('$752.50');
      // The top bar (shell) and this page (storefront) share one copy of the cart's endpoints and
      // of the kit, so one cache: the count above follows what this page does.
      expect(await providersOf(page, '@motoparts/state/cart')).toHaveLength(1);
      expect(await providersOf(page, '@motoparts/state')).toHaveLength(1);
      expect(await seriousViolations(page), 'the cart has serious or critical axe violations').toEqual([]);
      expect(await hasHorizontalScroll(page), 'the cart scrolls sideways').toBe(false);
      await page.screenshot({ path: `/tmp/cart-${width}.png`, fullPage: true });

      // The stepper's rules and messages, as on the purchase page.
      const chainLine = lines.filter({ hasText: chain.name });
      const qty = chainLine.getByTestId('quantity');
      const message = chainLine.getByTestId('stepper-message');
      await chainLine.getByRole('button', { name: 'Decrease' }).click();
      await expect(qty).toHaveText('100');
      await chainLine.getByRole('button', { name: 'Decrease' }).click();
      await expect(qty).toHaveText('100');
      await expect(message).toHaveText('Minimum purchase quantity is 100');
      for (let i = 0; i < 3; i++) await chainLine.getByRole('button', { name: 'Increase' }).click();
      await expect(qty).toHaveText('103');
      await expect(message).toHaveText('');
      await chainLine.getByRole('button', { name: 'Increase' }).click();
      await expect(qty).toHaveText('103');
      await expect(message).toHaveText('You have reach our available stocks');
      await expect(chainLine.getByTestId('line-total')).toHaveText('$257.50');
      await expect(page.getByTestId('cart-total')).toHaveText('$757.50');

      // A volume price the part has is offered, and taking it sets the line to its quantity;
      // parts without tiers show no hint.
      const sprocketLine = lines.filter({ hasText: sprocket.name });
      await expect(page.getByTestId('tier-hint')).toHaveCount(1);
      await sprocketLine.getByRole('button', { name: 'order 200 for $2.25 each' }).click();
      await expect(sprocketLine.getByTestId('quantity')).toHaveText('200');
      await expect(page.getByTestId('tier-hint')).toHaveCount(0);

      // Remove: the line goes, and the top bar follows.
      await sprocketLine.getByRole('button', { name: `Remove ${sprocket.name}` }).click();
      await expect(lines).toHaveCount(2);
      await expect(cartCount(page)).toHaveText('2');
      await expect(page.getByTestId('cart-total')).toHaveText('$507.50');
      const stored = await api<Cart>('GET', '/cart', token);
      expect(stored.lines.map((l) => [l.partId, l.qty])).toEqual([
        [chain._id, 103],
        [lever._id, 100],
      ]);

      // Delivery details are required, then Checkout goes to the checkout's payment page.
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page.getByText('Address is required')).toBeVisible();
      await expect(page.getByText('Phone is required')).toBeVisible();
      await page.getByLabel('Address').fill('12 Workshop Lane, Springfield');
      await page.getByLabel('Phone').fill('+1 555 0100');
      await page.getByRole('button', { name: 'Checkout' }).click();
      await expect(page).toHaveURL(/\/dashboard\/payment\/checkout\/[0-9a-f]{24}$/);
      await expect(cartCount(page)).toHaveText('0');

      const checkoutId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const checkout = await api<Checkout>('GET', `/checkout/${checkoutId}`, token);
      expect(checkout.orders.map((o) => [o.partsId, o.qty])).toEqual([
        [chain._id, 103],
        [lever._id, 100],
      ]);
      expect([checkout.address, checkout.phone]).toEqual(['12 Workshop Lane, Springfield', '+1 555 0100']);
      expect((await api<Cart>('GET', '/cart', token)).lines).toEqual([]);

      // The next cart starts with that address and phone, and an empty cart says so.
      await page.getByRole('link', { name: 'Cart 0 lines' }).click();
      await expect(page.getByText('Your cart is empty.')).toBeVisible();
      expect(await seriousViolations(page), 'the empty cart has serious or critical axe violations').toEqual(
        [],
      );
      await api('PUT', `/cart/lines/${lever._id}`, token, { qty: 100 });
      await page.reload();
      await expect(page.getByLabel('Address')).toHaveValue('12 Workshop Lane, Springfield');
      await expect(page.getByLabel('Phone')).toHaveValue('+1 555 0100');
      await api('DELETE', `/checkout/${checkoutId}`, token);
    });

    test('a signed-out visitor’s Add to cart on a card goes through /login and comes back with the part in the cart', async ({
      page,
    }) => {
      const lever = parts[2] as Part;
      const account = await emulatorSignUp(undefined, undefined, 'Cart Visitor');
      await catalogueWith(page, lever);
      await expect(cartCount(page)).toHaveCount(0);
      await card(page, lever)
        .getByRole('button', { name: `Add to cart: ${lever.name}` })
        .click();
      await expect(page).toHaveURL(/\/login$/);
      await page.getByLabel(/email/i).first().fill(account.email);
      await page
        .getByLabel(/password/i)
        .first()
        .fill(account.password);
      await page
        .locator('form')
        .getByRole('button', { name: /^login$/i })
        .click();

      await expect(page).toHaveURL(new RegExp(`/parts\\?q=`));
      await expect(page.getByText(`Added to your cart: 100 pieces of ${lever.name}.`)).toBeVisible();
      await expect(cartCount(page)).toHaveText('1');
      const token = await apiToken(account.email, account.password);
      expect((await api<Cart>('GET', '/cart', token)).lines.map((l) => [l.partId, l.qty])).toEqual([
        [lever._id, 100],
      ]);
      // Once done it is done: a reload adds nothing again.
      await page.reload();
      await expect(cartCount(page)).toHaveText('1');
      await expect(page.getByText(`${lever.name} is already in your cart`)).toHaveCount(0);
    });

    test('an admin’s Add to cart shows the spec’s alert, and admins have no cart link', async ({ page }) => {
      const [chain, , lever] = parts as [Part, Part, Part];
      await adminSession(page);
      const alerts: string[] = [];
      page.on('dialog', (d) => {
        alerts.push(d.message());
        void d.accept();
      });
      await page.goto(`/purchase/${chain._id}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => alerts).toEqual(['As an admin You can not order any product.']);
      await catalogueWith(page, lever);
      await card(page, lever)
        .getByRole('button', { name: `Add to cart: ${lever.name}` })
        .click();
      await expect.poll(() => alerts).toHaveLength(2);
      expect(alerts[1]).toBe('As an admin You can not order any product.');
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('link', { name: /^Cart/ })).toHaveCount(0);
    });
  });
}
