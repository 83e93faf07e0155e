import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { Order, Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { seriousViolations } from '../support/page-checks';
import { postPaymentSucceeded } from '../support/webhook';
import {
  adminSession,
  createTestPart,
  deletePart,
  findListedRow,
  hasHorizontalScroll,
} from './storefront-helpers';

/**
 * The admin's bulk tools, by clicks: Manage Products imports a CSV file (a dry run's report with
 * its one bad row, then Apply) and exports the catalogue; Manage Order filters by state, searches
 * by customer email and order id (Back returns to the previous filters) and exports what it shows.
 */

/** The rows of a downloaded CSV file, by column name. */
async function rowsOf(download: Download): Promise<Record<string, string>[]> {
  const file = await download.path();
  return parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[];
}

const orderRows = (page: Page) => page.locator('tr[data-order-id]');

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('Manage Products imports a CSV file with one bad row, then exports the catalogue', async ({
      page,
    }) => {
      const name = `E2E Imported Lever ${width} ${Date.now()}`;
      const file = [
        'name,text,img,price,qty,availableQty,category,priceTiers',
        `${name},"A lever the import brought, with a comma.",/images/parts/steel-rear-sprocket-42t.svg,4.25,2,30,parts,10:4.00`,
        `${name} bad,A row with a price no one can read.,/images/parts/steel-rear-sprocket-42t.svg,four,2,30,parts,`,
      ].join('\r\n');

      await adminSession(page);
      await page.goto('/dashboard/manageProduct');
      await expect(page.getByRole('heading', { level: 1, name: 'Manage Products' })).toBeVisible();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import products' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'parts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(file),
      });

      // The dry run: what would happen, and the bad row as a spreadsheet numbers it.
      await expect(dialog.getByTestId('import-summary')).toHaveText(
        'Ready to create 1 product and update 0 products; 0 products unchanged. 1 row has errors and will be skipped.',
      );
      const errors = dialog.getByRole('table', { name: 'Rows with errors' });
      await expect(errors.locator('tbody tr')).toHaveCount(1);
      await expect(errors.locator('tbody tr').first()).toContainText('3');
      await expect(errors.locator('tbody tr').first()).toContainText('price');
      await expect(errors.locator('tbody tr').first()).toContainText('must be a number');
      const before = await api<Part[]>('GET', `/parts?q=${encodeURIComponent(name)}`);
      expect(before).toEqual([]);
      expect(await seriousViolations(page), 'the import report has serious/critical axe violations').toEqual(
        [],
      );

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await expect(dialog.getByTestId('import-summary')).toHaveText(
        'Created 1 product, updated 0 products; 0 products unchanged. 1 row has errors and was skipped.',
      );
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();

      const [part] = await api<Part[]>('GET', `/parts?q=${encodeURIComponent(name)}`);
      if (!part) throw new Error('the imported part is not in the catalogue');
      try {
        expect(part).toMatchObject({
          name,
          price: 4.25,
          qty: 2,
          availableQty: 30,
          priceTiers: [{ fromQty: 10, price: 4 }],
        });
        const row = await findListedRow(page, `tr[data-part-id="${part._id}"]`);
        await expect(row).toContainText(name);
        await expect(row.getByTestId('stock')).toHaveText('30');
        expect(await hasHorizontalScroll(page), 'Manage Products scrolls sideways').toBe(false);

        // Export: the download holds the part, as the import reads it back.
        const downloading = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export', exact: true }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toBe('parts.csv');
        const exported = (await rowsOf(download)).find((r) => r._id === part._id);
        expect(exported).toEqual({
          _id: part._id,
          name,
          text: 'A lever the import brought, with a comma.',
          img: '/images/parts/steel-rear-sprocket-42t.svg',
          price: '4.25',
          qty: '2',
          availableQty: '30',
          category: 'parts',
          priceTiers: '10:4.00',
          restock: '',
        });
      } finally {
        await deletePart(part._id);
      }
    });

    test('Manage Order filters by payment, searches by email and order id, goes Back, and exports', async ({
      page,
    }) => {
      const part = await createTestPart(1000, `E2E Filtered Part ${width} ${Date.now()}`);
      const account = await emulatorSignUp(undefined, undefined, 'Filter Rider');
      const token = await apiToken(account.email, account.password);
      const place = () => api<Order>('POST', '/order', token, { partsId: part._id, qty: 100 });
      const unpaid = await place();
      const paid = await place();
      const res = await postPaymentSucceeded({
        orderId: paid._id,
        amountCents: Math.round(paid.price * 100),
      });
      expect(res.status).toBe(200);

      try {
        await adminSession(page);
        await page.goto('/dashboard/manageOrder');
        await expect(page.getByRole('heading', { level: 1, name: 'Manage Order' })).toBeVisible();
        const filters = page.getByRole('search', { name: 'Filter orders' });

        // The customer's email: both orders, newest first.
        await filters.getByLabel('Order id or customer email').fill(account.email);
        await filters.getByRole('button', { name: 'Search' }).click();
        await expect(orderRows(page)).toHaveCount(2);
        await expect(orderRows(page).nth(0)).toHaveAttribute('data-order-id', paid._id);
        await expect(orderRows(page).nth(1)).toHaveAttribute('data-order-id', unpaid._id);

        // Paid only.
        await filters.getByLabel('Payment').selectOption({ label: 'Paid' });
        await expect(orderRows(page)).toHaveCount(1);
        await expect(orderRows(page).first()).toHaveAttribute('data-order-id', paid._id);
        await expect(page).toHaveURL(/paid=true/);
        expect(await seriousViolations(page), 'Manage Order has serious/critical axe violations').toEqual([]);
        expect(await hasHorizontalScroll(page), 'Manage Order scrolls sideways').toBe(false);

        // The export holds what the page shows.
        const downloading = page.waitForEvent('download');
        await filters.getByRole('button', { name: 'Export CSV' }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toBe('orders.csv');
        const exported = await rowsOf(download);
        expect(exported.map((r) => [r._id, r.user, r.paid, r.status])).toEqual([
          [paid._id, account.email, 'true', 'pending'],
        ]);

        // Back: the search alone again, both orders.
        await page.goBack();
        await expect(filters.getByLabel('Payment')).toHaveValue('');
        await expect(orderRows(page)).toHaveCount(2);

        // An order id finds that order only; Clear filters lists every order again.
        await filters.getByLabel('Order id or customer email').fill(unpaid._id);
        await filters.getByRole('button', { name: 'Search' }).click();
        await expect(orderRows(page)).toHaveCount(1);
        await expect(orderRows(page).first()).toHaveAttribute('data-order-id', unpaid._id);
        await filters.getByRole('button', { name: 'Clear filters' }).click();
        await expect(filters.getByLabel('Order id or customer email')).toHaveValue('');
        await expect(page).not.toHaveURL(/q=/);
      } finally {
        await api('DELETE', `/order/${unpaid._id}`, token).catch(() => undefined);
        await deletePart(part._id).catch(() => undefined);
      }
    });
  });
}
