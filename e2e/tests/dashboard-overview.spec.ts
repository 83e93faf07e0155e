import { expect, test, type Page, type Response } from '@playwright/test';
import type { Order, Part, Sales } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { seriousViolations } from '../support/page-checks';
import { postPaymentSucceeded } from '../support/webhook';
import {
  adminSession,
  adminToken,
  createTestPart,
  deletePart,
  hasHorizontalScroll,
} from './storefront-helpers';

// The admins' Overview by clicks, at a phone's and a desktop's width: opened from the menu, its
// chart drawn and its table equal to GET /sales, Restock of a sold-out part and Release of an
// unpaid order's pieces (each refreshing the figures), with the chart library loaded by this page
// only and no serious axe violation.

/** How the dashboard writes dollars (state's formatPrice): "$1,234.50". */
const usd = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Scripts the page has fetched so far, with their text, to tell where the chart library went. */
function scriptLog(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on('response', (res: Response) => {
    if (res.request().resourceType() === 'script') bodies.push(res.text().catch(() => ''));
  });
  // uPlot's own class names, present in its code whatever the minifier does.
  return async () => (await Promise.all(bodies)).some((body) => body.includes('u-cursor-pt'));
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('an admin opens the Overview from the menu, reads its figures, restocks and releases', async ({
      page,
    }) => {
      const stamp = `${width}-${Date.now()}`;
      const soldOut = await createTestPart(0, `E2E Overview sold out ${stamp}`);
      const held = await createTestPart(1000, `E2E Overview held ${stamp}`);
      const buyer = await emulatorSignUp(undefined, undefined, 'Overview Rider');
      const token = await apiToken(buyer.email, buyer.password);
      const unpaid = await api<Order>('POST', '/order', token, { partsId: held._id, qty: 200 });
      const sold = await api<Order>('POST', '/order', token, { partsId: held._id, qty: 100 });
      expect(
        (await postPaymentSucceeded({ orderId: sold._id, amountCents: Math.round(sold.price * 100) })).status,
      ).toBe(200);
      try {
        const chartLoaded = scriptLog(page);
        await adminSession(page);
        await page.goto('/dashboard');
        const menu = page.getByRole('navigation', { name: 'Dashboard' });
        // Another admin page first: it must not bring the chart library.
        await menu.getByRole('link', { name: 'Manage Products' }).click();
        await expect(page.getByRole('heading', { name: 'Manage Products', level: 1 })).toBeVisible();
        await expect(page.getByRole('region', { name: 'Products table' })).toBeVisible();
        expect(await chartLoaded()).toBe(false);

        await menu.getByRole('link', { name: 'Overview' }).click();
        await expect(page).toHaveURL(/\/dashboard\/overview$/);
        await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
        await expect(page.getByTestId('revenue-chart').locator('canvas')).toBeVisible();
        expect(await chartLoaded()).toBe(true);

        // The table under the chart holds the API's numbers, day by day (30 days, then 90).
        for (const days of [30, 90]) {
          if (days === 90) await page.getByRole('button', { name: 'Last 90 days' }).click();
          await expect(page.getByRole('button', { name: `Last ${days} days` })).toHaveAttribute(
            'aria-pressed',
            'true',
          );
          const figures = await api<Sales>('GET', `/sales?days=${days}`, await adminToken());
          const table = page.getByRole('region', { name: 'Revenue per day' });
          if (!(await table.isVisible())) await page.getByText('Revenue per day as a table').click();
          await expect(table.locator('tbody tr')).toHaveCount(days);
          const shown = await table
            .locator('tbody tr')
            .evaluateAll((rows) =>
              rows.map((r) => [r.getAttribute('data-date'), r.querySelector('td')?.textContent ?? '']),
            );
          expect(shown).toEqual(figures.revenueByDay.map((d) => [d.date, usd(d.revenue)]));
          await expect(
            page.getByText(`Revenue in the last ${days} days: ${usd(figures.revenue)}`),
          ).toBeVisible();
          // Today's revenue includes the order just paid.
          expect(figures.revenueByDay.at(-1)?.revenue ?? 0).toBeGreaterThanOrEqual(sold.price);
        }
        expect(await seriousViolations(page), 'the Overview has serious axe violations').toEqual([]);
        expect(await hasHorizontalScroll(page), 'the Overview scrolls sideways').toBe(false);
        await page.screenshot({ path: `/tmp/dash-${width}-overview.png`, fullPage: true });

        // Restock: the sold-out part leaves the list once it has stock for three minimum orders.
        const restock = page.getByRole('region', { name: 'Parts to restock' });
        const soldOutRow = restock.locator(`tr[data-part-id="${soldOut._id}"]`);
        await expect(soldOutRow).toContainText('Sold out');
        await soldOutRow.getByLabel(`Quantity to add to ${soldOut.name}`).fill('500');
        await soldOutRow.getByRole('button', { name: 'Restock' }).click();
        await expect(page.getByText(`${soldOut.name}: stock is now 500`)).toBeVisible();
        await expect(soldOutRow).toHaveCount(0);
        expect((await api<Part>('GET', `/parts/${soldOut._id}`)).availableQty).toBe(500);

        // Release: the unpaid order's 200 pieces go back on sale after the confirmation.
        const heldRow = page
          .getByRole('region', { name: 'Pieces held by unpaid orders' })
          .locator(`tr[data-order-id="${unpaid._id}"]`);
        await expect(heldRow).toContainText(buyer.email);
        const release = heldRow.getByRole('button', { name: /^Release 200 pcs/ });
        await release.click();
        const dialog = page.getByRole('dialog', { name: 'Release these pieces?' });
        await expect(dialog).toContainText(`The unpaid order of ${buyer.email} for 200 pcs`);
        expect(await seriousViolations(page), 'the Release dialog has serious axe violations').toEqual([]);
        await dialog.getByRole('button', { name: 'Yes, release' }).click();
        await expect(page.getByText(`Released 200 pcs of ${held.name}: back on sale`)).toBeVisible();
        await expect(heldRow).toHaveCount(0);
        // The pieces are on sale again; only the paid order's are gone.
        expect((await api<Part>('GET', `/parts/${held._id}`)).availableQty).toBe(900);
        const after = await api<Sales>('GET', '/sales?days=90', await adminToken());
        expect(after.held.find((h) => h.partId === held._id)).toBeUndefined();
      } finally {
        await api('DELETE', `/order/${unpaid._id}`, token).catch(() => undefined);
        await deletePart(soldOut._id);
      }
    });
  });
}
