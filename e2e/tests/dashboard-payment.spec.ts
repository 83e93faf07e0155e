import { expect, test, type Page } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import { postPaymentSucceeded } from '../support/webhook';
import { adminSession, useStoredSession } from './storefront-helpers';
import { serveStripeStandIn } from '../support/page-checks';

const SUCCEEDS = '4242424242424242';
const DECLINED = '4000000000000002';

/** A fresh customer with one unpaid order placed through the API. */
async function customerWithOrder(page: Page) {
  const account = await emulatorSignUp(undefined, undefined, 'Pay Rider');
  const token = await useStoredSession(page, account, 'Pay Rider');
  const parts = await api<Part[]>('GET', '/parts');
  const part = parts.find((p) => p.availableQty >= p.qty);
  if (!part) throw new Error('no part in stock');
  const order = await api<Order>('POST', '/order', token, { partsId: part._id, qty: part.qty });
  return { account, token, order };
}

test('pay an order by card end to end: Stripe success, processing, signed webhook, then Paid everywhere', async ({
  page,
  browser,
}) => {
  await serveStripeStandIn(page);
  const { account, order } = await customerWithOrder(page);

  await page.goto('/dashboard/myOrder');
  await page.locator(`tr[data-order-id="${order._id}"]`).getByRole('link', { name: 'Payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payment/${order._id}$`));
  await expect(page.getByRole('heading', { name: 'Payment', level: 1 })).toBeVisible();
  const summary = page.getByLabel('Order summary');
  await expect(summary).toContainText(order.Parts);
  await expect(summary).toContainText(order._id);

  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  const card = page.getByRole('textbox', { name: 'Card number' });
  await expect(card).toBeVisible();
  // Ready card form + intent secret → Pay enabled (both arrive on load).
  await expect(pay).toBeEnabled();
  await card.fill(SUCCEEDS);
  await pay.click();

  await expect(page.getByText('Congrats! Your payment is completed.')).toBeVisible();
  const transactionId = (await page.getByTestId('transaction-id').textContent()) ?? '';
  expect(transactionId).toMatch(/^pi_/);
  await expect(pay).toBeDisabled();
  // stripe-mock does not remember the intent, so the server cannot confirm it yet: processing.
  await expect(page.getByText('Processing')).toBeVisible();
  await page.screenshot({ path: '/tmp/dashboard-payment-processing.png', fullPage: true });

  // The billing name and email went to Stripe with the intent's client secret.
  const calls = await page.evaluate(
    () =>
      (
        window as unknown as {
          __stripeStandIn: { calls: { clientSecret: string; billing_details: object }[] };
        }
      ).__stripeStandIn.calls,
  );
  expect(calls).toHaveLength(1);
  expect(calls[0]?.clientSecret).toContain(`${transactionId}_secret_`);
  expect(calls[0]?.billing_details).toEqual({ name: 'Pay Rider', email: account.email });

  // Stripe tells the API, signed, as it would in production.
  const res = await postPaymentSucceeded({
    orderId: order._id,
    amountCents: Math.round(order.price * 100),
    paymentIntentId: transactionId,
  });
  expect(res.status).toBe(200);
  await expect(page.getByText('Your order is paid.')).toBeVisible();
  await page.screenshot({ path: '/tmp/dashboard-payment-paid.png', fullPage: true });

  await page.getByRole('link', { name: 'See My Order' }).click();
  const row = page.locator(`tr[data-order-id="${order._id}"]`);
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  await expect(row).toContainText(transactionId);
  await expect(row.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(row.getByRole('link', { name: 'Payment' })).toHaveCount(0);

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminSession(adminPage);
  await adminPage.goto('/dashboard/manageOrder');
  const adminRow = adminPage.locator(`tr[data-order-id="${order._id}"]`);
  await expect(adminRow.getByText('Paid', { exact: true })).toBeVisible();
  await expect(adminRow).toContainText(transactionId);
  await expect(adminRow).toContainText(account.email);
  await adminContext.close();

  // Paying again is not offered: the page says the order is paid.
  await page.goto(`/dashboard/payment/${order._id}`);
  await expect(page.getByText('This order is already paid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toHaveCount(0);
});

test('a declined card shows Stripe’s message in red and the order stays unpaid', async ({ page }) => {
  await serveStripeStandIn(page);
  const { token, order } = await customerWithOrder(page);
  await page.goto(`/dashboard/payment/${order._id}`);
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();
  await page.getByRole('textbox', { name: 'Card number' }).fill(DECLINED);
  await pay.click();

  const error = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
  await expect(error).toBeVisible();
  await expect(error).toHaveCSS('color', 'rgb(176, 0, 32)');
  await expect(page.getByText('Congrats! Your payment is completed.')).toHaveCount(0);
  // The person can correct the card and try again.
  await expect(pay).toBeEnabled();
  await page.screenshot({ path: '/tmp/dashboard-payment-declined.png', fullPage: true });

  // An invalid number is reported inline, as Stripe's card element does.
  await page.getByRole('textbox', { name: 'Card number' }).fill('4242424242424241');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card number is invalid.' })).toBeVisible();

  expect((await api<Order>('GET', `/order/${order._id}`, token)).paid).toBe(false);
  await api('DELETE', `/order/${order._id}`, token);
});

test('when Stripe.js cannot load the page says card payments are unavailable', async ({ page }) => {
  await page.route('https://js.stripe.com/**', (route) => route.abort('internetdisconnected'));
  const { token, order } = await customerWithOrder(page);
  await page.goto(`/dashboard/payment/${order._id}`);
  await expect(page.getByText(/Card payments are unavailable right now/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Order summary')).toContainText(order.Parts);
  await api('DELETE', `/order/${order._id}`, token);
});

test('Stripe.js is not downloaded before a payment page is opened', async ({ page }) => {
  const stripeRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https://js.stripe.com/')) stripeRequests.push(r.url());
  });
  await serveStripeStandIn(page);
  const { token, order } = await customerWithOrder(page);
  await page.goto('/dashboard/myOrder');
  await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
  expect(stripeRequests).toEqual([]);
  await page.goto(`/dashboard/payment/${order._id}`);
  await expect(page.getByRole('textbox', { name: 'Card number' })).toBeVisible();
  expect(stripeRequests.length).toBe(1);
  await api('DELETE', `/order/${order._id}`, token);
});
