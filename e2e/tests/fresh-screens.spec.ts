import { expect, test, type Page } from '@playwright/test';
import type { Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import {
  adminSession,
  adminToken,
  deletePart,
  findInCatalogue,
  findListedRow,
  hasHorizontalScroll,
  useStoredSession,
} from './storefront-helpers';

/**
 * Screens in one remote must show what a mutation in another changed, without a reload: every
 * step after the first goto is a click, so only the shared RTK Query cache (and its tags) can
 * make the second screen fresh.
 */

const RUN = `Fresh${Date.now().toString(36)}`;
const created: string[] = [];
test.afterAll(async () => {
  for (const id of created.splice(0)) await deletePart(id);
});

async function makePart(name: string, availableQty = 1000): Promise<Part> {
  const { part } = await api<{ part: Part }>('POST', '/parts', await adminToken(), {
    name,
    text: `Made by the fresh-screens tests (${RUN}).`,
    img: '/images/parts/o-ring-drive-chain.svg',
    price: 4,
    qty: 100,
    availableQty,
  });
  created.push(part._id);
  return part;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const dashMenu = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

async function toCatalogue(page: Page) {
  await nav(page).getByRole('link', { name: 'Home', exact: true }).click();
  await page.getByRole('link', { name: 'Browse parts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All parts, tools and gear' })).toBeVisible();
}

/** Tab `times` times; after each press, focus must still be inside `dialog`. */
async function expectTabTrapped(page: Page, dialogName: string, times = 6) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
}

test('order → My Order, cancel → the catalogue, review → Reviews: fresh without a reload; dialogs trap focus', async ({
  page,
}) => {
  const part = await makePart(`${RUN} Chain Lube`);
  const account = await emulatorSignUp(undefined, undefined, 'Fresh Rider');
  await useStoredSession(page, account, 'Fresh Rider');

  // My Order first, so its (empty) list is in the cache when the order is placed.
  await page.goto('/dashboard/myOrder');
  await expect(page.getByText('You have no orders yet.')).toBeVisible();
  // Reviews too, before a review is added.
  await nav(page).getByRole('link', { name: 'Reviews', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await toCatalogue(page);
  const card = await findInCatalogue(page, part.name);
  await expect(card).toContainText('1,000 pcs');
  await card.getByRole('link', { name: `Purchase ${part.name}` }).click();
  const orderNow = page.getByRole('button', { name: 'Order now' });
  await orderNow.click();

  // The Congratulations dialog: a native modal, focus trapped, Escape closes, focus goes back.
  const congrats = page.getByRole('dialog', { name: 'Congratulations!' });
  await expect(congrats).toBeVisible();
  expect(
    await congrats.evaluate((d) => d instanceof HTMLDialogElement && d.open && d.matches(':modal')),
  ).toBe(true);
  await expect(congrats.getByRole('button', { name: 'Close' })).toBeFocused();
  await expectTabTrapped(page, 'Congratulations!');
  await page.keyboard.press('Escape');
  await expect(congrats).toBeHidden();
  await expect(orderNow).toBeFocused();
  await expect(page.getByTestId('available-qty')).toHaveText('900 pcs');

  // The catalogue, by clicking: the same search, cached before the order, shows the new stock.
  await toCatalogue(page);
  await expect(await findInCatalogue(page, part.name)).toContainText('900 pcs');

  // My Order by clicking: the new order is there.
  await nav(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await dashMenu(page).getByRole('link', { name: 'My Order' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: part.name }) });
  await expect(row).toBeVisible();

  // The confirmation is the same dialog: Tab stays inside, Escape keeps the order, focus returns.
  const cancel = row.getByRole('button', { name: 'Cancel order' });
  await cancel.click();
  await expect(page.getByRole('dialog', { name: 'Cancel this order?' })).toBeVisible();
  await expectTabTrapped(page, 'Cancel this order?');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(cancel).toBeFocused();
  await cancel.click();
  await page.getByRole('button', { name: 'Yes, cancel order' }).click();
  await expect(page.getByText('You have no orders yet.')).toBeVisible();

  // The catalogue, by clicking: the cancelled pieces are back in stock on the card.
  await toCatalogue(page);
  await expect(await findInCatalogue(page, part.name)).toContainText('1,000 pcs');

  // A review, then Reviews by clicking: it is listed.
  await nav(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await dashMenu(page).getByRole('link', { name: 'Add Review' }).click();
  const text = `${RUN}: the chain lube arrived in a day`;
  await page.getByLabel('Photo URL').fill('/images/reviewers/3.svg');
  await page.getByLabel('Review', { exact: true }).fill(text);
  await page.getByLabel('Rating').selectOption('5');
  await page.getByRole('button', { name: 'Add review' }).click();
  await expect(page.getByText('Product added successfully')).toBeVisible();
  await nav(page).getByRole('link', { name: 'Reviews', exact: true }).click();
  await expect(page.getByText(text)).toBeVisible();
});

test('Add Product and restock show in the catalogue without a reload', async ({ page }) => {
  await adminSession(page);
  const name = `${RUN} Tyre Lever Set`;
  await page.goto('/');
  // The catalogue first, so its lists are cached when the product is added.
  await page.getByRole('link', { name: 'Browse parts' }).click();
  await page.getByLabel('Category').selectOption('tools');
  await expect(page.getByTestId('part-card').first()).toBeVisible();

  await nav(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await dashMenu(page).getByRole('link', { name: 'Add Product' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('Three forged steel levers for tubeless and tubed tyres.');
  await page.getByLabel('Price').fill('8.40');
  await page.getByLabel('Minimum order quantity').fill('100');
  await page.getByLabel('Available quantity').fill('120');
  await page.getByLabel('Photo URL').fill('/images/parts/click-torque-wrench.svg');
  await page.getByLabel('Category').selectOption('tools');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added successfully')).toBeVisible();
  const added = (await api<Part[]>('GET', `/parts?q=${encodeURIComponent(name)}`))[0];
  if (added) created.push(added._id);
  expect(added).toMatchObject({ category: 'tools', availableQty: 120 });

  // Back to the catalogue by clicks (Back restores the tools filter): the new tool is there.
  await page.goBack();
  await page.goBack();
  await expect(page.getByLabel('Category')).toHaveValue('tools');
  const card = await findInCatalogue(page, name);
  await expect(card).toContainText('Tools');
  await expect(card.getByText('Low stock', { exact: true })).toBeVisible();

  // Restock in Manage Products, then the card shows the new stock.
  await nav(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await dashMenu(page).getByRole('link', { name: 'Manage Products' }).click();
  // Manage Products pages through every product (by name): page on until its row is listed.
  if (!added) throw new Error('the new product is not in the catalogue');
  const row = await findListedRow(page, `tr[data-part-id="${added._id}"]`);
  const restock = row.getByRole('form', { name: `Restock ${name}` });
  await restock.getByRole('textbox').fill('880');
  await restock.getByRole('button').click();
  await expect(page.getByRole('row').filter({ hasText: name }).getByTestId('stock')).toHaveText('1,000');
  await toCatalogue(page);
  const fresh = await findInCatalogue(page, name);
  await expect(fresh).toContainText('1,000 pcs');
  await expect(fresh.getByText('In stock', { exact: true })).toBeVisible();
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  /** Every button and link inside the list is within the 375 px viewport, and the page does not scroll sideways. */
  async function expectActionsOnScreen(page: Page, region: string) {
    const actions = page.getByRole('region', { name: region }).locator('button, a');
    await expect(actions.first()).toBeVisible();
    const boxes = await actions.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent, left: r.left, right: r.right, height: r.height };
      }),
    );
    for (const box of boxes) {
      expect(box.left, `${box.text} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.right, `${box.text} ends on screen`).toBeLessThanOrEqual(375);
      expect(box.height, `${box.text} is a 44 px tap target`).toBeGreaterThanOrEqual(44);
    }
    expect(await hasHorizontalScroll(page)).toBe(false);
  }

  test('every action of My Order is on screen', async ({ page }) => {
    const part = await makePart(`${RUN} Narrow Screen Bolt`);
    const account = await emulatorSignUp(undefined, undefined, 'Narrow Rider');
    const token = await useStoredSession(page, account, 'Narrow Rider');
    await api('POST', '/order', token, { partsId: part._id, qty: 100 });
    await page.goto('/dashboard/myOrder');
    await expect(page.getByRole('button', { name: 'Cancel order' })).toBeVisible();
    await expectActionsOnScreen(page, 'My orders table');
  });

  test('every action of Manage Order and Manage Products is on screen', async ({ page }) => {
    const part = await makePart(`${RUN} Narrow Admin Bolt`);
    const customer = await emulatorSignUp();
    await api('POST', '/order', await apiToken(customer.email, customer.password), {
      partsId: part._id,
      qty: 100,
    });
    await adminSession(page);
    await page.goto('/dashboard/manageOrder');
    await expectActionsOnScreen(page, 'All orders table');
    await dashMenu(page).getByRole('link', { name: 'Manage Products' }).click();
    await expectActionsOnScreen(page, 'Products table');
  });
});
