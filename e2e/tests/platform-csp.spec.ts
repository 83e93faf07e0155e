import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Order } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';

/**
 * The shop works under its Content-Security-Policy: a whole journey (home, login, purchase,
 * dashboard, payment) by clicks, with no violation reported, neither in the console nor as a
 * `securitypolicyviolation` event. Stripe.js is the stand-in Playwright serves at Stripe's URL.
 */
const STAND_IN = path.join(__dirname, 'fixtures', 'stripe-stand-in.js');

/** Collects every violation the page reports, from the first byte of every document. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(m.text())) {
      fromConsole.push(m.text());
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(
        `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)),
  ];
}

test('home, login, purchase, dashboard and payment run with no CSP violation', async ({ page }) => {
  const violations = await watchViolations(page);
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ path: STAND_IN, contentType: 'text/javascript; charset=utf-8' }),
  );
  const account = await emulatorSignUp(undefined, undefined, 'Policy Rider');

  // Home: the policy is on the document, strict, and the page (prerendered hero, remote) works.
  const res = await page.goto('/');
  const policy = res?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toMatch(/script-src [^;]*'sha256-/);
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');
  // Photos from the shop's own origins and the API's /uploads/ only, never from any https origin.
  expect(policy).toMatch(/img-src [^;]*http:\/\/(localhost|127\.0\.0\.1):\d+/);
  expect(policy).not.toMatch(/img-src [^;]*\shttps?:(\s|;|$)/);
  expect(res?.headers()['x-content-type-options']).toBe('nosniff');
  await expect(
    page.getByRole('heading', { name: 'Motorcycle parts in bulk, straight from stock' }),
  ).toBeVisible();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  // The hero's styles (its linked stylesheet) apply: the first screen is styled, not raw HTML.
  const heroDisplay = await page.locator('section.hero').evaluate((el) => getComputedStyle(el).display);
  expect(heroDisplay).not.toBe('inline');

  // Login through the auth remote and the Firebase emulator.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Login', exact: true })
    .click();
  await expect(page).toHaveURL(/\/login$/);
  const form = page.getByRole('region', { name: 'Login' });
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Login', exact: true }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();

  // Purchase: from a part card on the home page; a toast-free path ends in the dialog.
  await nav.getByRole('link', { name: 'Home', exact: true }).click();
  await page
    .getByTestId('part-card')
    .first()
    .getByRole('link', { name: /^Purchase / })
    .click();
  await expect(page).toHaveURL(/\/purchase\/[0-9a-f]{24}$/);
  await page.getByLabel('Address').fill('1 Policy Road');
  await page.getByLabel('Phone').fill('+1 555 0101');
  const placed = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/order'));
  await page.getByRole('button', { name: 'Order now' }).click();
  const order = (await (await placed).json()) as Order;
  const dialog = page.getByRole('dialog', { name: 'Congratulations!' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  try {
    // Dashboard → My Order → Payment, with Stripe.js (the stand-in) on the page.
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
    await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
    await page.locator(`tr[data-order-id="${order._id}"]`).getByRole('link', { name: 'Payment' }).click();
    await expect(page.getByRole('heading', { name: 'Payment', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Card number' }).fill('4242424242424242');
    const pay = page.getByRole('button', { name: 'Pay', exact: true });
    await expect(pay).toBeEnabled();
    await pay.click();
    await expect(page.getByText('Congrats! Your payment is completed.')).toBeVisible();

    expect(await violations()).toEqual([]);
  } finally {
    // The order is paid by card at Stripe's stand-in only; cancel it so the stock comes back.
    const token = await apiToken(account.email, account.password);
    await api('DELETE', `/order/${order._id}`, token).catch(() => undefined);
  }
});

test('a violation would be reported: an inline script the policy does not hash is refused', async ({
  page,
}) => {
  // The control for the journey above: the watcher sees a real violation on this very site.
  const violations = await watchViolations(page);
  await page.goto('/');
  await expect(page.getByTestId('part-card').first()).toBeVisible();
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.appendChild(s);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect
    .poll(async () => (await violations()).some((v) => /script-src/.test(v)), 'the refusal was reported')
    .toBe(true);
});
