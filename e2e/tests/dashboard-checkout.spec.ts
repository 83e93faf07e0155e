import { expect, test, type Page } from '@playwright/test';
import type { Cart, Checkout, Order, Part } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import { postPaymentSucceeded } from '../support/webhook';
import { createTestPart, deletePart, hasHorizontalScroll, useStoredSession } from './storefront-helpers';
import { seriousViolations, serveStripeStandIn } from '../support/page-checks';

/*
 * docs/product.md#my-order and #checkout-payment: a checkout's lines under one heading on My Order,
 * paid once on its payment page, cancelled as one, ordered again. The cart and the checkout are
 * made through the API: the cart page is the storefront's.
 */

const SUCCEEDS = '4242424242424242';
const RUN = Date.now();

async function expectAccessible(page: Page, what: string) {
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  expect(await seriousViolations(page), `${what} has serious/critical axe violations`).toEqual([]);
  expect(await hasHorizontalScroll(page), `${what} scrolls sideways`).toBe(false);
}

/** A fresh customer whose cart of `parts` (a minimum order each) is checked out through the API. */
async function customerWithCheckout(page: Page, parts: Part[], name: string) {
  const account = await emulatorSignUp(undefined, undefined, name);
  const token = await useStoredSession(page, account, name);
  for (const part of parts) await api<Cart>('PUT', `/cart/lines/${part._id}`, token, { qty: part.qty });
  const checkout = await api<Checkout>('POST', '/checkout', token, {
    address: '12 Workshop Lane, Chattogram',
    phone: '+880 1700-000000',
  });
  return { account, token, checkout };
}

/** My Order, reached by clicks from the dashboard's landing page. */
async function openMyOrder(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
}

/** The containers that provided the loaded copies of a shared module (platform-federation.spec.ts). */
async function loadedProviders(page: Page, lib: string): Promise<string[]> {
  return page.evaluate((name) => {
    type Entry = { loaded?: boolean; from?: string };
    const fed = (globalThis as { __FEDERATION__?: { __SHARE__?: Record<string, unknown> } }).__FEDERATION__;
    const scopes = Object.values(fed?.__SHARE__ ?? {}) as Record<
      string,
      Record<string, Record<string, Entry>>
    >[];
    const found = new Set<string>();
    for (const scope of scopes.flatMap((s) => Object.values(s))) {
      for (const [version, entry] of Object.entries(scope[name] ?? {})) {
        if (entry.loaded) found.add(`${entry.from}@${version}`);
      }
    }
    return [...found];
  }, lib);
}

const money = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('a checkout of three parts shows as one group on My Order and is paid once', async ({ page }) => {
      await serveStripeStandIn(page);
      const parts = await Promise.all(
        ['Brake pads', 'Chain kit', 'Air filter'].map((n) => createTestPart(1_000, `${RUN} ${width} ${n}`)),
      );
      try {
        const { account, token, checkout } = await customerWithCheckout(page, parts, 'Checkout Rider');
        expect(checkout.orders).toHaveLength(3);

        await openMyOrder(page);
        const group = page.locator(`section[data-checkout-id="${checkout.checkoutId}"]`);
        const heading = group.getByRole('heading', { level: 2 });
        await expect(heading).toContainText('Checkout of');
        await expect(heading).toContainText('3 lines');
        await expect(heading).toContainText(money(checkout.total));
        for (const part of parts)
          await expect(group.getByRole('rowheader', { name: part.name })).toBeVisible();
        // One Payment and one Cancel for the whole checkout, none per line.
        await expect(group.getByRole('link', { name: 'Payment' })).toHaveCount(1);
        await expect(group.getByRole('button', { name: 'Cancel checkout' })).toHaveCount(1);
        await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
        // One copy of the kit's cart entry runs, whichever container provided it (the shell does not
        // use it, so the dashboard's own copy may be the one): it injects into the shared kit's api.
        expect(await loadedProviders(page, '@motoparts/state/cart')).toHaveLength(1);
        await expectAccessible(page, 'My Order with a checkout');
        // Every action of the group is on screen and a 44 px tap target, at 375 px too.
        const boxes = await group
          .locator('button, a')
          .evaluateAll((els) =>
            els.map((el) => ({ text: el.textContent, ...el.getBoundingClientRect().toJSON() })),
          );
        expect(boxes).toHaveLength(3);
        for (const box of boxes as { text: string; left: number; right: number; height: number }[]) {
          expect(box.left, `${box.text} starts on screen`).toBeGreaterThanOrEqual(0);
          expect(box.right, `${box.text} ends on screen`).toBeLessThanOrEqual(width);
          expect(box.height, `${box.text} is a 44 px tap target`).toBeGreaterThanOrEqual(44);
        }
        await page.screenshot({ path: `/tmp/dash-${width}-checkout-group.png`, fullPage: true });

        await group.getByRole('link', { name: 'Payment' }).click();
        await expect(page).toHaveURL(new RegExp(`/dashboard/payment/checkout/${checkout.checkoutId}$`));
        const summary = page.getByRole('region', { name: 'Checkout summary' });
        for (const part of parts)
          await expect(summary.getByRole('rowheader', { name: part.name })).toBeVisible();
        await expect(summary.getByTestId('checkout-total')).toHaveText(money(checkout.total));

        const pay = page.getByRole('button', { name: 'Pay', exact: true });
        const card = page.getByRole('textbox', { name: 'Card number' });
        await expect(card).toBeVisible();
        await expect(pay).toBeEnabled();
        await expectAccessible(page, 'the checkout payment page');
        await page.screenshot({ path: `/tmp/dash-${width}-checkout-payment.png`, fullPage: true });
        await card.fill(SUCCEEDS);
        await pay.click();

        await expect(page.getByText('Congrats! Your payment is completed.')).toBeVisible();
        const transactionId = (await page.getByTestId('transaction-id').textContent()) ?? '';
        expect(transactionId).toMatch(/^pi_/);
        await expect(pay).toBeDisabled();
        // stripe-mock does not remember the intent, so the API cannot confirm it yet.
        await expect(page.getByText('Processing')).toBeVisible();
        // One confirmation, for the one intent of the whole checkout.
        const calls = await page.evaluate(
          () =>
            (window as unknown as { __stripeStandIn: { calls: { clientSecret: string }[] } }).__stripeStandIn
              .calls,
        );
        expect(calls).toHaveLength(1);
        expect(calls[0]?.clientSecret).toContain(`${transactionId}_secret_`);

        // Stripe tells the API, signed, for the checkout's total.
        const res = await postPaymentSucceeded({
          checkoutId: checkout.checkoutId,
          amountCents: Math.round(checkout.total * 100),
          paymentIntentId: transactionId,
        });
        expect(res.status).toBe(200);
        await expect(page.getByText('Every line of your checkout is paid.')).toBeVisible();

        await page.getByRole('link', { name: 'See My Order' }).click();
        await expect(group.getByText('Paid', { exact: true })).toHaveCount(1);
        await expect(group.getByText(transactionId)).toHaveCount(1);
        await expect(group.getByRole('rowheader')).toHaveCount(3);
        await expect(group.getByRole('link', { name: 'Payment' })).toHaveCount(0);
        await expect(group.getByRole('button', { name: 'Cancel checkout' })).toHaveCount(0);
        const lines = await api<Order[]>('GET', `/order?user=${encodeURIComponent(account.email)}`, token);
        expect(lines.map((o) => [o.paid, o.transactionId])).toEqual([
          [true, transactionId],
          [true, transactionId],
          [true, transactionId],
        ]);
        await page.screenshot({ path: `/tmp/dash-${width}-checkout-paid.png`, fullPage: true });

        // Order again puts the three lines back in the (emptied) cart.
        expect((await api<Cart>('GET', '/cart', token)).lines).toEqual([]);
        await group.getByRole('button', { name: 'Order again' }).click();
        await expect(page.getByText('All 3 lines are back in your cart.')).toBeVisible();
        const cart = await api<Cart>('GET', '/cart', token);
        expect(cart.lines.map((l) => [l.partId, l.qty]).sort()).toEqual(
          parts.map((p) => [p._id, p.qty]).sort(),
        );

        // A part gone meanwhile stays out, and the toast says how many lines went back.
        for (const part of parts) await api<Cart>('DELETE', `/cart/lines/${part._id}`, token);
        const [gone, ...kept] = parts;
        if (!gone) throw new Error('no part');
        await deletePart(gone._id);
        await group.getByRole('button', { name: 'Order again' }).click();
        await expect(
          page.getByText('2 of 3 lines are back in your cart; the others are sold out or gone.'),
        ).toBeVisible();
        const refilled = await api<Cart>('GET', '/cart', token);
        expect(refilled.lines.map((l) => l.partId).sort()).toEqual(kept.map((p) => p._id).sort());

        // A line's own payment link leads to its checkout's page, which says it is paid.
        const line = checkout.orders[0];
        if (!line) throw new Error('the checkout has no line');
        await page.goto(`/dashboard/payment/${line._id}`);
        await expect(page).toHaveURL(new RegExp(`/dashboard/payment/checkout/${checkout.checkoutId}$`));
        await expect(page.getByText('This checkout is already paid.')).toBeVisible();
        await expect(page.getByRole('button', { name: 'Pay', exact: true })).toHaveCount(0);
      } finally {
        for (const part of parts) await deletePart(part._id);
      }
    });

    test('Cancel checkout (confirmed) gives every line’s stock back', async ({ page }) => {
      const parts = await Promise.all(
        ['Clutch cable', 'Spark plug'].map((n) => createTestPart(1_000, `${RUN} ${width} ${n}`)),
      );
      try {
        const { checkout } = await customerWithCheckout(page, parts, 'Cancel Rider');
        for (const part of parts) {
          expect((await api<Part>('GET', `/parts/${part._id}`)).availableQty).toBe(1_000 - part.qty);
        }

        await openMyOrder(page);
        const group = page.locator(`section[data-checkout-id="${checkout.checkoutId}"]`);
        await expect(group.getByRole('heading', { level: 2 })).toContainText('2 lines');

        // The dialog asks first; keeping the checkout changes nothing.
        await group.getByRole('button', { name: 'Cancel checkout' }).click();
        const dialog = page.getByRole('dialog', { name: 'Cancel this checkout?' });
        await expect(dialog).toContainText('Are you sure, you want to delete this product');
        await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/dash-${width}-checkout-cancel-dialog.png` });
        await dialog.getByRole('button', { name: 'Keep it' }).click();
        await expect(dialog).toBeHidden();
        await expect(group).toBeVisible();

        await group.getByRole('button', { name: 'Cancel checkout' }).click();
        await dialog.getByRole('button', { name: 'Yes, cancel checkout' }).click();
        await expect(group).toHaveCount(0);
        await expect(page.getByText('You have no orders yet.')).toBeVisible();
        for (const part of parts) {
          await expect
            .poll(async () => (await api<Part>('GET', `/parts/${part._id}`)).availableQty)
            .toBe(1_000);
        }
      } finally {
        for (const part of parts) await deletePart(part._id);
      }
    });
  });
}

test('the standalone dashboard groups a checkout and orders it again too', async ({ page }) => {
  const config = (await (await page.request.get('/config.json')).json()) as {
    remotes: { dashboard: string };
  };
  const part = await createTestPart(1_000, `${RUN} Standalone Brake lever`);
  try {
    const { token, checkout } = await customerWithCheckout(page, [part], 'Standalone Rider');
    await page.goto(new URL('dashboard/myOrder', config.remotes.dashboard).href);
    const group = page.locator(`section[data-checkout-id="${checkout.checkoutId}"]`);
    await expect(group.getByRole('heading', { level: 2 })).toContainText('1 line');
    await group.getByRole('button', { name: 'Order again' }).click();
    await expect(page.getByText('The line is back in your cart.')).toBeVisible();
    expect((await api<Cart>('GET', '/cart', token)).lines.map((l) => l.partId)).toEqual([part._id]);
    await api('DELETE', `/checkout/${checkout.checkoutId}`, token);
  } finally {
    await deletePart(part._id);
  }
});
