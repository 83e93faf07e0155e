import { expect, test } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import {
  adminSession,
  adminToken,
  deletePart,
  findInCatalogue,
  findListedRow,
  hasHorizontalScroll,
  useStoredSession,
} from './storefront-helpers';
import { seriousViolations } from '../support/page-checks';

/**
 * Volume prices from end to end, by clicks: an admin gives a part tiers through Manage Products'
 * Edit, a customer sees the lowest one on its card, the purchase page's unit price and total
 * change as the stepper crosses each tier, and the order is charged the tier's price.
 */

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    let part: Part;
    test.beforeEach(async () => {
      const { part: created } = await api<{ part: Part }>('POST', '/parts', await adminToken(), {
        name: `E2E Tiered Bolt ${width} ${Date.now()}`,
        text: 'A part the end-to-end tests give volume prices.',
        img: '/images/parts/steel-rear-sprocket-42t.svg',
        price: 2.5,
        qty: 100,
        availableQty: 500,
      });
      part = created;
    });
    test.afterEach(async () => {
      await deletePart(part._id);
    });

    test('an admin adds tiers through Edit; the card, the purchase page and the order follow them', async ({
      browser,
      page,
    }) => {
      // The admin: Manage Products → Edit, filled in from the part, stock shown and not editable.
      await adminSession(page);
      await page.goto('/dashboard/manageProduct');
      const row = await findListedRow(page, `tr[data-part-id="${part._id}"]`);
      await row.getByRole('link', { name: `Edit ${part.name}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Edit product: ${part.name}` })).toBeVisible();
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue(part.name);
      await expect(page.getByLabel('Price', { exact: true })).toHaveValue('2.5');
      await expect(page.getByLabel('Minimum order quantity')).toHaveValue('100');
      await expect(page.getByTestId('edit-stock')).toContainText('In stock: 500 pcs');
      await expect(page.getByLabel('Available quantity')).toHaveCount(0);

      // A first tier at the minimum is refused in the form's words, then corrected.
      await page.getByRole('button', { name: 'Add a volume price' }).click();
      await page.getByLabel('Tier 1 from quantity').fill('100');
      await page.getByLabel('Tier 1 price').fill('2.25');
      await page.getByRole('button', { name: 'Add a volume price' }).click();
      await page.getByLabel('Tier 2 from quantity').fill('104');
      await page.getByLabel('Tier 2 price').fill('2');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(
        page.getByText('From quantity must be above the minimum order quantity (100)'),
      ).toBeVisible();
      await page.getByLabel('Tier 1 from quantity').fill('102');
      expect(await seriousViolations(page), 'the edit form has serious/critical axe violations').toEqual([]);
      expect(await hasHorizontalScroll(page), 'the edit form scrolls sideways').toBe(false);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText(`${part.name} saved`)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Manage Products' })).toBeVisible();

      const edited = await api<Part>('GET', `/parts/${part._id}`);
      expect(edited.priceTiers).toEqual([
        { fromQty: 102, price: 2.25 },
        { fromQty: 104, price: 2 },
      ]);
      expect(edited.availableQty).toBe(500);

      // A customer, in a browser of their own: the card in the catalogue shows the lowest tier.
      const context = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 } });
      const shopper = await context.newPage();
      const account = await emulatorSignUp(undefined, undefined, 'Tier Rider');
      const token = await useStoredSession(shopper, account, 'Tier Rider');
      try {
        await shopper.goto('/parts');
        const card = await findInCatalogue(shopper, part.name);
        await expect(card).toContainText('$2.50 per piece');
        await expect(card).toContainText('from $2.00 at 104 pcs');
        await card.getByRole('link', { name: `Purchase ${part.name}` }).click();

        // The purchase page: the tiers listed, unit price and total following the stepper.
        await expect(shopper.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
        const tiers = shopper.getByTestId('price-tiers');
        await expect(tiers).toContainText('From 102 pcs');
        await expect(tiers).toContainText('$2.25 per piece');
        const qty = shopper.getByTestId('quantity');
        const unit = shopper.getByTestId('unit-price');
        const total = shopper.getByTestId('order-total');
        const increase = shopper.getByRole('button', { name: 'Increase' });
        const decrease = shopper.getByRole('button', { name: 'Decrease' });
        const steps: [() => Promise<void>, string, string, string][] = [
          [async () => undefined, '100', '$2.50', '$250.00'],
          [() => increase.click(), '101', '$2.50', '$252.50'],
          [() => increase.click(), '102', '$2.25', '$229.50'],
          [() => increase.click(), '103', '$2.25', '$231.75'],
          [() => increase.click(), '104', '$2.00', '$208.00'],
          [() => decrease.click(), '103', '$2.25', '$231.75'],
          [() => increase.click(), '104', '$2.00', '$208.00'],
        ];
        for (const [step, q, u, t] of steps) {
          await step();
          await expect(qty).toHaveText(q);
          await expect(unit).toHaveText(u);
          await expect(total).toHaveText(t);
        }
        await expect(shopper.getByText('(volume price from 104 pcs)')).toBeVisible();
        expect(await hasHorizontalScroll(shopper), 'the purchase page scrolls sideways').toBe(false);

        // What is shown is what is charged: the order, in the dialog and in My Order.
        await shopper.getByRole('button', { name: 'Order now' }).click();
        const dialog = shopper.getByRole('dialog', { name: 'Congratulations!' });
        await expect(dialog).toContainText('104 pieces for $208.00');
        await dialog.getByRole('link', { name: 'Go to My Order' }).click();
        const orders = await api<Order[]>('GET', `/order?user=${encodeURIComponent(account.email)}`, token);
        expect(orders.map((o) => [o.partsId, o.qty, o.price])).toEqual([[part._id, 104, 208]]);
        const orderRow = shopper.locator(`tr[data-order-id="${orders[0]?._id}"]`);
        await expect(orderRow).toContainText('$208.00');
        for (const order of orders) await api('DELETE', `/order/${order._id}`, token);
      } finally {
        await context.close();
      }
    });
  });
}
