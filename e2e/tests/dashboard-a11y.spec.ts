import { expect, test, type Page } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import { adminSession, hasHorizontalScroll, useStoredSession } from './storefront-helpers';
import { STRIPE_STAND_IN, seriousViolations } from '../support/page-checks';

async function checkPage(page: Page, url: string, heading: string, shot: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  // Let lists and forms finish loading so axe sees the real page, not a spinner.
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  expect(await seriousViolations(page), `${url} has serious/critical axe violations`).toEqual([]);
  expect(await hasHorizontalScroll(page), `${url} scrolls sideways`).toBe(false);
  await page.screenshot({ path: `/tmp/${shot}.png`, fullPage: true });
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('customer pages have no serious accessibility violations and fit the width', async ({ page }) => {
      await page.route('https://js.stripe.com/**', (route) =>
        route.fulfill({ path: STRIPE_STAND_IN, contentType: 'text/javascript; charset=utf-8' }),
      );
      const account = await emulatorSignUp(undefined, undefined, 'A11y Rider');
      const token = await useStoredSession(page, account, 'A11y Rider');
      const part = (await api<Part[]>('GET', '/parts')).find((p) => p.availableQty >= p.qty);
      if (!part) throw new Error('no part in stock');
      const order = await api<Order>('POST', '/order', token, { partsId: part._id, qty: part.qty });
      try {
        await checkPage(page, '/dashboard', 'My Profile', `dash-${width}-profile`);
        await checkPage(page, '/dashboard/myOrder', 'My Order', `dash-${width}-my-order`);
        await checkPage(page, '/dashboard/addReview', 'Add Review', `dash-${width}-add-review`);
        await checkPage(page, `/dashboard/payment/${order._id}`, 'Payment', `dash-${width}-payment`);
        await expect(page.getByRole('textbox', { name: 'Card number' })).toBeVisible();
        await checkPage(page, '/dashboard/manageOrder', 'Not allowed', `dash-${width}-not-allowed`);

        // The confirmation dialog, open.
        await page.goto('/dashboard/myOrder');
        await page.getByRole('button', { name: 'Cancel order' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/dash-${width}-cancel-dialog.png` });
      } finally {
        await api('DELETE', `/order/${order._id}`, token).catch(() => undefined);
      }
    });

    test('admin pages have no serious accessibility violations and fit the width', async ({ page }) => {
      await adminSession(page);
      await checkPage(page, '/dashboard', 'My Profile', `dash-${width}-admin-profile`);
      await checkPage(page, '/dashboard/manageOrder', 'Manage Order', `dash-${width}-manage-order`);
      await checkPage(page, '/dashboard/allUser', 'All Users', `dash-${width}-all-users`);
      await checkPage(page, '/dashboard/manageProduct', 'Manage Products', `dash-${width}-manage-products`);
      await checkPage(page, '/dashboard/addProduct', 'Add Product', `dash-${width}-add-product`);
      // On a phone the table becomes stacked cards: nothing scrolls sideways, not even the table.
      await page.goto('/dashboard/manageProduct');
      const region = page.getByRole('region', { name: 'Products table' });
      await expect(region).toBeVisible();
      if (width === 375) {
        expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(false);
      }
    });
  });
}
