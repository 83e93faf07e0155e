import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import { readMessage, waitForMessagesTo } from '../support/mailpit';
import { postPaymentSucceeded } from '../support/webhook';
import {
  adminSession,
  adminToken,
  createTestPart,
  deletePart,
  hasHorizontalScroll,
  useStoredSession,
} from './storefront-helpers';
import { seriousViolations, serveStripeStandIn } from '../support/page-checks';

/*
 * docs/product.md#my-order, #manage-order, #shipping and #refunds: what happens to an order after
 * its payment, by clicks. A customer pays and then cancels and refunds it from My Order; an admin
 * ships a paid order with its tracking number, marks it delivered and refunds part of it, and the
 * customer follows it all in the order's history. An unpaid order's Pending button is disabled,
 * saying why.
 */

const SUCCEEDS = '4242424242424242';

async function expectAccessible(page: Page, what: string) {
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  expect(await seriousViolations(page), `${what} has serious/critical axe violations`).toEqual([]);
  expect(await hasHorizontalScroll(page), `${what} scrolls sideways`).toBe(false);
}

/** A fresh customer signed in on `page`, with one unpaid order of `part` placed through the API. */
async function customerWithOrder(page: Page, part: Part, name: string) {
  const account = await emulatorSignUp(undefined, undefined, name);
  const token = await useStoredSession(page, account, name);
  const order = await api<Order>('POST', '/order', token, { partsId: part._id, qty: part.qty });
  return { account, token, order };
}

/** My Order, reached by clicks from the dashboard's landing page. */
async function openMyOrder(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
}

/** Manage Order in a browser of the admin's own. */
async function adminPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 } });
  const page = await context.newPage();
  await adminSession(page);
  await page.goto('/dashboard');
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Manage Order' })
    .click();
  await expect(page.getByRole('heading', { name: 'Manage Order', level: 1 })).toBeVisible();
  return page;
}

/** Opens a row's History disclosure and gives its lines. */
async function history(row: Locator): Promise<Locator> {
  await row.locator('summary').click();
  const lines = row.locator('.dash-history li');
  await expect(lines.first()).toBeVisible();
  return lines;
}

const money = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('a customer pays an order, then cancels and refunds it from My Order', async ({ page }) => {
      const part = await createTestPart(500, `E2E Refund Bolt ${width} ${Date.now()}`);
      try {
        await serveStripeStandIn(page);
        const { account, token, order } = await customerWithOrder(page, part, 'Refund Rider');
        expect((await api<Part>('GET', `/parts/${part._id}`)).availableQty).toBe(400);

        // Pay by card, as the payment spec does: the stand-in confirms, then Stripe's signed word.
        await openMyOrder(page);
        const row = page.locator(`tr[data-order-id="${order._id}"]`);
        await expect(row.getByRole('button', { name: 'Cancel and refund' })).toHaveCount(0);
        await row.getByRole('link', { name: 'Payment' }).click();
        await page.getByRole('textbox', { name: 'Card number' }).fill(SUCCEEDS);
        const pay = page.getByRole('button', { name: 'Pay', exact: true });
        await expect(pay).toBeEnabled();
        await pay.click();
        await expect(page.getByText('Congrats! Your payment is completed.')).toBeVisible();
        const transactionId = (await page.getByTestId('transaction-id').textContent()) ?? '';
        const paid = await postPaymentSucceeded({
          orderId: order._id,
          amountCents: Math.round(order.price * 100),
          paymentIntentId: transactionId,
        });
        expect(paid.status).toBe(200);
        // The buyer's mail, read from Mailpit: the order, then its receipt with the transaction id.
        const receipt = (await waitForMessagesTo(account.email, { count: 2 }))[1];
        expect(receipt?.Subject).toBe(`Receipt for your MotoParts order ${order._id}`);
        expect((await readMessage(receipt?.ID ?? '')).Text).toContain(`Transaction id: ${transactionId}`);
        await expect(page.getByText('Your order is paid.')).toBeVisible();
        await page.getByRole('link', { name: 'See My Order' }).click();

        // Paid and not shipped: Cancel and refund, in place of the unpaid order's two buttons.
        await expect(row.getByText('Paid', { exact: true })).toBeVisible();
        await expect(row.getByText('Pending', { exact: true })).toBeVisible();
        await expect(row.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
        const cancel = row.getByRole('button', { name: 'Cancel and refund' });
        await cancel.click();
        const dialog = page.getByRole('dialog', { name: 'Cancel and refund this order?' });
        await expect(dialog).toContainText('Are you sure, you want to delete this product');
        await expect(dialog).toContainText(`${money(order.price)} goes back to the card`);
        await expect(dialog).toHaveAttribute('aria-modal', 'true');
        await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
        expect(await seriousViolations(page), 'the Cancel and refund dialog').toEqual([]);
        await page.screenshot({ path: `/tmp/dash-${width}-cancel-refund-dialog.png` });
        // Keeping it changes nothing.
        await dialog.getByRole('button', { name: 'Keep it' }).click();
        await expect(dialog).toBeHidden();
        await expect(cancel).toBeFocused();
        expect((await api<Order>('GET', `/order/${order._id}`, token)).status).toBe('pending');

        await cancel.click();
        await dialog.getByRole('button', { name: 'Yes, cancel and refund' }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByText(`Order for ${part.name} cancelled:`)).toBeVisible();
        await expect(row.getByText('Refunded', { exact: true })).toBeVisible();
        await expect(row.getByRole('button', { name: 'Cancel and refund' })).toHaveCount(0);
        const mails = await waitForMessagesTo(account.email, { count: 3 });
        expect(mails.map((m) => m.Subject)).toEqual([
          `Your MotoParts order ${order._id}`,
          `Receipt for your MotoParts order ${order._id}`,
          `Refund for your MotoParts order ${order._id}`,
        ]);
        expect((await readMessage(mails[2]?.ID ?? '')).Text).toContain(`We refunded ${money(order.price)}`);
        await expect(row).toContainText('Not shipped');
        const lines = await history(row);
        await expect(lines).toHaveCount(3);
        await expect(lines.nth(0)).toContainText('Order placed');
        await expect(lines.nth(1)).toContainText('Payment received');
        await expect(lines.nth(2)).toContainText(`Refunded ${money(order.price)}`);
        await expectAccessible(page, 'My Order with a refunded order');
        await page.screenshot({ path: `/tmp/dash-${width}-refunded.png`, fullPage: true });

        // Stored: refunded, and its pieces are back on sale.
        const stored = await api<Order>('GET', `/order/${order._id}`, token);
        expect(stored).toMatchObject({ status: 'refunded', refunded: order.price, paid: true });
        await expect.poll(async () => (await api<Part>('GET', `/parts/${part._id}`)).availableQty).toBe(500);
      } finally {
        await deletePart(part._id);
      }
    });

    test('an admin ships a paid order with its tracking number, delivers it, refunds part; the customer follows it', async ({
      page,
      browser,
    }) => {
      const part = await createTestPart(500, `E2E Ship Bolt ${width} ${Date.now()}`);
      const admin = await adminPage(browser, width);
      try {
        const { account, order } = await customerWithOrder(page, part, 'Ship Rider');
        const tracking = `1Z999AA1${String(Date.now()).slice(-8)}`;

        // Unpaid: the spec's Pending label, disabled, saying why.
        await admin.reload();
        const row = admin.locator(`tr[data-order-id="${order._id}"]`);
        await expect(row).toContainText(account.email);
        await expect(row.getByText('Unpaid', { exact: true })).toBeVisible();
        const pending = row.getByRole('button', { name: /^Pending: mark order/ });
        await expect(pending).toBeDisabled();
        await expect(pending).toHaveAccessibleDescription('Not paid yet');
        await expect(row.getByText('Not paid yet', { exact: true })).toBeVisible();
        await expect(row.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
        await expectAccessible(admin, 'Manage Order with an unpaid order');
        await admin.screenshot({ path: `/tmp/dash-${width}-unpaid-pending.png`, fullPage: true });

        // Stripe's word pays it; the admin's list shows it paid, and Pending ships now.
        const paid = await postPaymentSucceeded({
          orderId: order._id,
          amountCents: Math.round(order.price * 100),
        });
        expect(paid.status).toBe(200);
        await admin.reload();
        await expect(row.getByText('Paid', { exact: true })).toBeVisible();
        await expect(pending).toBeEnabled();
        await expect(row.getByText('Not paid yet')).toHaveCount(0);

        // A click on Pending ships, after a dialog where the carrier and tracking number may go.
        await pending.click();
        const ship = admin.getByRole('dialog', { name: 'Ship this order?' });
        await expect(ship).toContainText(part.name);
        await expect(ship.getByLabel('Carrier (optional)')).toBeFocused();
        await ship.getByLabel('Tracking number (optional)').fill('not #valid');
        await ship.getByRole('button', { name: 'Mark as shipped' }).click();
        await expect(
          ship.getByText('Tracking number must be 1 to 40 letters, digits, spaces or dashes'),
        ).toBeVisible();
        await ship.getByLabel('Carrier (optional)').fill('UPS');
        await ship.getByLabel('Tracking number (optional)').fill(tracking);
        expect(await seriousViolations(admin), 'the ship dialog').toEqual([]);
        await admin.screenshot({ path: `/tmp/dash-${width}-ship-dialog.png` });
        await ship.getByRole('button', { name: 'Mark as shipped' }).click();
        await expect(ship).toBeHidden();
        const shipped = row.getByRole('button', { name: /^Shipped: mark order/ });
        await expect(shipped).toBeVisible();
        await expect(shipped).toBeFocused();
        await expect(row).toContainText(`UPS ${tracking}`);
        await expect(row.getByRole('button', { name: /^Pending/ })).toHaveCount(0);

        // Delivered is its own action, confirmed; then the shipment no longer moves.
        await row.getByRole('button', { name: /^Mark order .* as delivered$/ }).click();
        const deliver = admin.getByRole('dialog', { name: 'Mark this order delivered?' });
        await expect(deliver.getByRole('button', { name: 'Not yet' })).toBeFocused();
        await deliver.getByRole('button', { name: 'Yes, delivered' }).click();
        await expect(deliver).toBeHidden();
        await expect(row.getByText('Delivered', { exact: true })).toBeVisible();
        await expect(row.getByRole('button', { name: /^Shipped|delivered$/ })).toHaveCount(0);
        await expect
          .poll(async () => (await api<Order>('GET', `/order/${order._id}`, await adminToken())).status)
          .toBe('delivered');

        // A partial refund, confirmed in a dialog that says how much.
        await row.getByRole('button', { name: /^Refund order/ }).click();
        const refund = admin.getByRole('dialog', { name: 'Refund this order?' });
        const amount = refund.getByLabel('Amount to refund (USD)');
        await expect(amount).toHaveValue(order.price.toFixed(2));
        await amount.fill(String(order.price + 1));
        await refund.getByRole('button', { name: /^Yes, refund/ }).click();
        await expect(refund.getByText(`Amount must be at most ${money(order.price)}`)).toBeVisible();
        await amount.fill('50');
        await refund.getByRole('button', { name: 'Yes, refund $50.00' }).click();
        await expect(refund).toBeHidden();
        await expect(row.getByText('Refunded $50.00', { exact: true })).toBeVisible();
        await expect(row.getByText('Delivered', { exact: true })).toBeVisible();
        const adminLines = await history(row);
        await expect(adminLines).toHaveCount(5);
        await expect(adminLines.nth(2)).toContainText(`Shipped (UPS ${tracking})`);
        await expect(adminLines.nth(4)).toContainText('Partly refunded $50.00');
        await expectAccessible(admin, 'Manage Order with a history open');
        await admin.screenshot({ path: `/tmp/dash-${width}-manage-order-history.png`, fullPage: true });

        // The customer sees the shipment, the delivery, the refund and the history on My Order.
        await openMyOrder(page);
        const mine = page.locator(`tr[data-order-id="${order._id}"]`);
        await expect(mine.getByText('Paid', { exact: true })).toBeVisible();
        await expect(mine.getByText('Refunded $50.00', { exact: true })).toBeVisible();
        await expect(mine.getByText('Delivered', { exact: true })).toBeVisible();
        await expect(mine).toContainText(`UPS ${tracking}`);
        await expect(mine.getByRole('button', { name: 'Cancel and refund' })).toHaveCount(0);
        const lines = await history(mine);
        // Oldest first, each event with its time under it (machine-readable too).
        await expect(lines).toHaveText([
          /^Order placed \w{3} \d{1,2}, \d{4}/,
          /^Payment received /,
          new RegExp(`^Shipped \\(UPS ${tracking}\\) `),
          /^Delivered /,
          /^Partly refunded \$50\.00 /,
        ]);
        await expect(lines.first().locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
        await expectAccessible(page, 'My Order with a history open');
        await page.screenshot({ path: `/tmp/dash-${width}-my-order-history.png`, fullPage: true });
      } finally {
        await admin.context().close();
        await deletePart(part._id);
      }
    });
  });
}
