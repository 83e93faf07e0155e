import { expect, test, type Page } from '@playwright/test';
import type { Order, Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { API_URL, DEMO } from '../support/env';
import { seriousViolations } from '../support/page-checks';
import { postPaymentSucceeded } from '../support/webhook';
import { adminSession, adminToken, createTestPart, deletePart, findListedRow } from './storefront-helpers';

/** A new customer known to the API (the token exchange creates the user record). */
async function registeredCustomer() {
  const account = await emulatorSignUp();
  const token = await apiToken(account.email, account.password);
  return { ...account, token };
}

const productRow = (page: Page, part: Part) => findListedRow(page, `tr[data-part-id="${part._id}"]`);
const userRow = (page: Page, email: string) => findListedRow(page, `tr[data-email="${email}"]`);

test.beforeEach(async ({ page }) => {
  await adminSession(page);
});

test('Make Admin promotes a customer: success toast, then the Admin badge', async ({ page }) => {
  const customer = await registeredCustomer();
  await page.goto('/dashboard/allUser');
  // The demo admin shows the badge, never the button.
  const adminRow = await userRow(page, DEMO.admin.email);
  await expect(adminRow.getByText('Admin', { exact: true })).toBeVisible();
  await expect(adminRow.getByRole('button')).toHaveCount(0);

  const row = await userRow(page, customer.email);
  await expect(row.getByText('Admin', { exact: true })).toHaveCount(0);
  await row.getByRole('button', { name: `Make Admin: ${customer.email}` }).click();
  await expect(page.getByText('Successfully made an admin')).toBeVisible();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /Make Admin/ })).toHaveCount(0);
  expect(
    await api<{ admin: boolean }>('GET', `/admin/${encodeURIComponent(customer.email)}`, customer.token),
  ).toEqual({
    admin: true,
  });
});

test('Make Admin refused by the server (403) shows "Failed to Make an admin"', async ({ page }) => {
  const customer = await registeredCustomer();
  // This admin's rights are withdrawn between loading the page and clicking: the call reaches
  // the real API with a non-admin's token, and the API answers its real 403.
  const riderToken = await apiToken(DEMO.rider.email, DEMO.rider.password);
  await page.route(`${API_URL}/user/admin/**`, async (route) => {
    const response = await route.fetch({
      headers: { ...route.request().headers(), authorization: `Bearer ${riderToken}` },
    });
    expect(response.status()).toBe(403);
    await route.fulfill({ response });
  });
  await page.goto('/dashboard/allUser');
  const row = await userRow(page, customer.email);
  await row.getByRole('button', { name: `Make Admin: ${customer.email}` }).click();
  await expect(page.getByText('Failed to Make an admin')).toBeVisible();
  await expect(row.getByRole('button', { name: `Make Admin: ${customer.email}` })).toBeVisible();
  expect(
    await api<{ admin: boolean }>('GET', `/admin/${encodeURIComponent(customer.email)}`, customer.token),
  ).toEqual({
    admin: false,
  });
});

test('End sessions signs a customer out on every device, only after confirming in the dialog', async ({
  page,
}) => {
  const customer = await registeredCustomer();
  const profile = () => api('GET', `/user/${encodeURIComponent(customer.email)}`, customer.token);
  await page.goto('/dashboard/allUser');
  // Your own row offers none: Sign Out is yours.
  const adminRow = await userRow(page, DEMO.admin.email);
  await expect(adminRow.getByRole('button', { name: /End sessions/ })).toHaveCount(0);

  const row = await userRow(page, customer.email);
  const endSessions = row.getByRole('button', { name: `End sessions: ${customer.email}` });
  await endSessions.click();
  const dialog = page.getByRole('dialog', { name: "End this user's sessions?" });
  await expect(dialog).toContainText(`${customer.email} is signed out on every device`);
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  // The safe choice has the focus; it changes nothing, and the focus goes back to the button.
  const keep = dialog.getByRole('button', { name: 'Keep them signed in' });
  await expect(keep).toBeFocused();
  await keep.click();
  await expect(dialog).toBeHidden();
  await expect(endSessions).toBeFocused();
  await profile();

  await endSessions.click();
  await dialog.getByRole('button', { name: 'Yes, end sessions' }).click();
  await expect(page.getByText(`Sessions ended for ${customer.email}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(endSessions).toBeFocused();
  // The customer's API token, and the Firebase ID token it came from, are both over.
  await expect(profile()).rejects.toThrow(/→ 401/);
  const exchange = await fetch(`${API_URL}/user/${encodeURIComponent(customer.email)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${customer.idToken}` },
  });
  expect(exchange.status).toBe(401);
  // A new sign-in works.
  await api(
    'GET',
    `/user/${encodeURIComponent(customer.email)}`,
    await apiToken(customer.email, customer.password),
  );
});

test('Remove admin, Disable and Enable: each confirmed, each effective at once', async ({ page }) => {
  const customer = await registeredCustomer();
  const email = encodeURIComponent(customer.email);
  await api('PUT', `/user/admin/${email}`, await adminToken());
  await page.goto('/dashboard/allUser');
  const row = await userRow(page, customer.email);

  // Remove admin: asked first, then the row offers Make Admin again and the API agrees.
  await row.getByRole('button', { name: `Remove admin: ${customer.email}` }).click();
  const demote = page.getByRole('dialog', { name: 'Remove the admin role?' });
  await expect(demote.getByRole('button', { name: 'Keep them admin' })).toBeFocused();
  expect(await seriousViolations(page), 'the dialog has serious/critical axe violations').toEqual([]);
  await demote.getByRole('button', { name: 'Yes, remove admin' }).click();
  await expect(page.getByText(`${customer.email} is no longer an admin`)).toBeVisible();
  await expect(row.getByRole('button', { name: `Make Admin: ${customer.email}` })).toBeEnabled();
  expect(await api<{ admin: boolean }>('GET', `/admin/${email}`, customer.token)).toEqual({ admin: false });

  // Disable: the account's token stops at once; Make Admin waits until it is enabled.
  await row.getByRole('button', { name: `Disable: ${customer.email}` }).click();
  const disable = page.getByRole('dialog', { name: 'Disable this account?' });
  await expect(disable).toContainText('cannot sign in until an admin enables the account again');
  await disable.getByRole('button', { name: 'Yes, disable' }).click();
  await expect(page.getByText(`${customer.email} is disabled`)).toBeVisible();
  await expect(row.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Make Admin: ${customer.email}` })).toBeDisabled();
  await expect(api('GET', `/user/${email}`, customer.token)).rejects.toThrow(/→ 401/);
  await expect(apiToken(customer.email, customer.password)).rejects.toThrow();

  // Enable: no dialog (nothing is lost), and a new sign-in works.
  await row.getByRole('button', { name: `Enable: ${customer.email}` }).click();
  await expect(page.getByText(`${customer.email} is enabled again`)).toBeVisible();
  await expect(row.getByRole('button', { name: `Disable: ${customer.email}` })).toBeVisible();
  await api('GET', `/user/${email}`, await apiToken(customer.email, customer.password));
});

test('deleting a product that an open order holds archives it: gone from the shop, kept for the order', async ({
  page,
}) => {
  const part = await createTestPart(500, `E2E Archive Me ${Date.now()}`);
  const customer = await registeredCustomer();
  const order = await api<Order>('POST', '/order', customer.token, { partsId: part._id, qty: 100 });
  try {
    await page.goto('/dashboard/manageProduct');
    const row = await productRow(page, part);
    await row.getByRole('button', { name: `Delete ${part.name}` }).click();
    await page
      .getByRole('dialog', { name: 'Delete this product?' })
      .getByRole('button', { name: 'Yes, delete' })
      .click();
    await expect(page.getByText(`${part.name} archived: open orders still need it`)).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(api('GET', `/parts/${part._id}`)).rejects.toThrow(/404/);
    // The order is still the customer's, and cancelling it is still possible.
    expect((await api<Order>('GET', `/order/${order._id}`, customer.token)).partsId).toBe(part._id);
  } finally {
    await api('DELETE', `/order/${order._id}`, customer.token);
    await deletePart(part._id);
  }
});

test('delete a product only after confirming in the dialog', async ({ page }) => {
  const part = await createTestPart(500, `E2E Delete Me ${Date.now()}`);
  try {
    await page.goto('/dashboard/manageProduct');
    const row = await productRow(page, part);
    await row.getByRole('button', { name: `Delete ${part.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this product?' });
    await expect(dialog).toContainText('Are you sure, you want to delete this product');
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await page.screenshot({ path: '/tmp/dashboard-delete-dialog.png' });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(dialog).toBeHidden();
    expect((await api<Part>('GET', `/parts/${part._id}`)).name).toBe(part.name);

    await row.getByRole('button', { name: `Delete ${part.name}` }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(row).toHaveCount(0);
    await expect(api('GET', `/parts/${part._id}`)).rejects.toThrow(/404/);
  } finally {
    await deletePart(part._id);
  }
});

test('restock: quantity required and numeric, then the stock shown grows', async ({ page }) => {
  const part = await createTestPart(500, `E2E Restock ${Date.now()}`);
  try {
    await page.goto('/dashboard/manageProduct');
    const row = await productRow(page, part);
    await expect(row.getByTestId('stock')).toHaveText('500');
    const quantity = row.getByLabel(`Quantity to add to ${part.name}`);
    const restock = row.getByRole('button', { name: 'Restock', exact: true });
    await restock.click();
    await expect(row.getByText('Quantity is required')).toBeVisible();
    await quantity.fill('lots');
    await restock.click();
    await expect(row.getByText('Quantity must be a number')).toBeVisible();
    await quantity.fill('250');
    await restock.click();
    await expect(row.getByTestId('stock')).toHaveText('750');
    await expect(quantity).toHaveValue('');
    expect((await api<Part>('GET', `/parts/${part._id}`)).availableQty).toBe(750);
  } finally {
    await deletePart(part._id);
  }
});

test('Add Product: required and numeric fields, toast, and the part appears on the home page', async ({
  page,
}) => {
  const name = `E2E Added Exhaust ${Date.now()}`;
  await page.goto('/dashboard/addProduct');
  await page.getByLabel('Minimum order quantity').fill('');
  await page.getByRole('button', { name: 'Add product' }).click();
  for (const message of [
    'Name is required',
    'Description is required',
    'Price is required',
    'Minimum order quantity is required',
    'Available quantity is required',
    'Photo URL is required',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('Stainless slip-on exhaust for 600 cc sport bikes.');
  await page.getByLabel('Price').fill('twelve');
  await page.getByLabel('Minimum order quantity').fill('100');
  await page.getByLabel('Available quantity').fill('1500');
  await page.getByLabel('Photo URL').fill('/images/parts/spin-on-oil-filter.svg');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Price must be a number')).toBeVisible();
  await page.getByLabel('Price').fill('12.75');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added successfully')).toBeVisible();

  const parts = await api<Part[]>('GET', '/parts?limit=100');
  const added = parts.find((p) => p.name === name);
  expect(added).toMatchObject({ price: 12.75, qty: 100, availableQty: 1500 });
  try {
    // Client-side navigation: the dashboard invalidated the cached list, so home refetches it.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Home', exact: true })
      .click();
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  } finally {
    if (added) await deletePart(added._id);
  }
});

test('Manage Order lists every order; Shipped is stored and survives a reload', async ({ page }) => {
  const customer = await registeredCustomer();
  const part = (await api<Part[]>('GET', '/parts')).find((p) => p.availableQty >= p.qty);
  if (!part) throw new Error('no part in stock');
  const order = await api<Order>('POST', '/order', customer.token, { partsId: part._id, qty: part.qty });
  try {
    await page.goto('/dashboard/manageOrder');
    // Newest first: a just-placed order is on the first page.
    const row = page.locator(`tr[data-order-id="${order._id}"]`);
    await expect(row).toContainText(customer.email);
    await expect(row).toContainText(part.name);
    await expect(row).toContainText(part.qty.toLocaleString('en-US'));
    await expect(row.getByText('Unpaid')).toBeVisible();
    // Only paid orders ship: an unpaid one keeps the Pending label, disabled, saying why.
    const toggle = row.getByRole('button', { name: /^Pending: mark order/ });
    await expect(toggle).toBeDisabled();
    await expect(toggle).toHaveAccessibleDescription('Not paid yet');
    await expect(row.getByText('Not paid yet')).toBeVisible();

    // Stripe's signed word pays it (docs/product.md#payments).
    const paid = await postPaymentSucceeded({
      orderId: order._id,
      amountCents: Math.round(order.price * 100),
    });
    expect(paid.status).toBe(200);
    await page.reload();
    await expect(row.getByText('Paid', { exact: true })).toBeVisible();
    await expect(toggle).toBeEnabled();
    // A click on Pending ships it, once confirmed (the carrier and tracking number are optional).
    await toggle.click();
    await page
      .getByRole('dialog', { name: 'Ship this order?' })
      .getByRole('button', { name: 'Mark as shipped' })
      .click();
    await expect(row.getByRole('button', { name: /^Shipped: mark order/ })).toBeVisible();
    await expect
      .poll(
        async () =>
          (await api<Order>('GET', `/order/${order._id}`, await adminToken()).catch(() => order)).status,
      )
      .toBe('shipped');
    await page.reload();
    await expect(
      page.locator(`tr[data-order-id="${order._id}"]`).getByRole('button', { name: /^Shipped/ }),
    ).toBeVisible();
  } finally {
    // Taken back and refunded whole, so its pieces go back on sale; an unpaid one is cancelled.
    const token = await adminToken();
    await api('PATCH', `/order/${order._id}/status`, token, { status: 'pending' }).catch(() => undefined);
    await api('POST', `/order/${order._id}/refund`, token, {}).catch(() => undefined);
    await api('DELETE', `/order/${order._id}`, customer.token).catch(() => undefined);
  }
});
