import { expect, test, type Page } from '@playwright/test';
import type { Order, Part, Review, User } from '@motoparts/contracts';
import { api, emulatorSignUp } from '../support/api';
import { useStoredSession } from './storefront-helpers';

/** A brand-new customer per test, so profile, orders and reviews start empty and nothing leaks. */
async function newCustomer(page: Page) {
  const account = await emulatorSignUp();
  const token = await useStoredSession(page, account, 'E2E Rider');
  return { ...account, token };
}

async function firstPart(): Promise<Part> {
  const parts = await api<Part[]>('GET', '/parts');
  const part = parts.find((p) => p.availableQty >= p.qty * 2);
  if (!part) throw new Error('no seeded part with enough stock');
  return part;
}

test('My Profile shows name and email, saves the four fields and shows them again after a reload', async ({
  page,
}) => {
  const me = await newCustomer(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
  await expect(page.getByTestId('profile-name')).toHaveText('E2E Rider');
  await expect(page.getByTestId('profile-email')).toHaveText(me.email);

  // A malformed value is refused in the form, with its field named.
  await page.getByLabel('Phone').fill('call me');
  await page.getByRole('button', { name: 'Update profile' }).click();
  await expect(page.getByText('Phone may contain only digits, spaces and + ( ) - .')).toBeVisible();

  await page.getByLabel('Education').fill('Diploma in Automotive Technology');
  await page.getByLabel('Location').fill('Chattogram, Bangladesh');
  await page.getByLabel('Phone').fill('+880 1700-000000');
  await page.getByLabel('LinkedIn profile').fill('https://www.linkedin.com/in/e2e-rider');
  await page.getByRole('button', { name: 'Update profile' }).click();
  await expect(page.getByText('Profile update successfully')).toBeVisible();

  const stored = await api<User>('GET', `/user/${encodeURIComponent(me.email)}`, me.token);
  expect(stored).toMatchObject({
    education: 'Diploma in Automotive Technology',
    location: 'Chattogram, Bangladesh',
    phone: '+880 1700-000000',
    linkedin: 'https://www.linkedin.com/in/e2e-rider',
  });

  await page.reload();
  await expect(page.getByLabel('Education')).toHaveValue('Diploma in Automotive Technology');
  await expect(page.getByLabel('Location')).toHaveValue('Chattogram, Bangladesh');
  await expect(page.getByLabel('Phone')).toHaveValue('+880 1700-000000');
  await expect(page.getByLabel('LinkedIn profile')).toHaveValue('https://www.linkedin.com/in/e2e-rider');
});

test('an order placed through the API shows in My Order and cancelling it (confirmed) restores the stock', async ({
  page,
}) => {
  const me = await newCustomer(page);
  const part = await firstPart();
  const order = await api<Order>('POST', '/order', me.token, { partsId: part._id, qty: part.qty });
  const reserved = await api<Part>('GET', `/parts/${part._id}`);
  expect(reserved.availableQty).toBeLessThanOrEqual(part.availableQty - part.qty);

  await page.goto('/dashboard/myOrder');
  const row = page.locator(`tr[data-order-id="${order._id}"]`);
  await expect(row.getByRole('rowheader')).toHaveText(part.name);
  await expect(row.getByRole('link', { name: 'Payment' })).toHaveAttribute(
    'href',
    `/dashboard/payment/${order._id}`,
  );

  // The dialog asks first; keeping the order changes nothing.
  await row.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Are you sure, you want to delete this product');
  await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Cancel order' })).toBeFocused();

  await row.getByRole('button', { name: 'Cancel order' }).click();
  await dialog.getByRole('button', { name: 'Yes, cancel order' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('You have no orders yet.')).toBeVisible();

  await expect
    .poll(async () => (await api<Part>('GET', `/parts/${part._id}`)).availableQty)
    .toBe(reserved.availableQty + part.qty);
  await expect(api('GET', `/order/${order._id}`, me.token)).rejects.toThrow(/404/);
});

test('Add Review: email is the user’s and read-only, every field required, then the Add Product toast', async ({
  page,
}) => {
  const me = await newCustomer(page);
  await page.goto('/dashboard/addReview');
  const email = page.getByLabel('Email');
  await expect(email).toHaveValue(me.email);
  await expect(email).toHaveAttribute('readonly', '');

  await page.getByRole('button', { name: 'Add review' }).click();
  await expect(page.getByText('Photo URL is required')).toBeVisible();
  await expect(page.getByText('Review is required')).toBeVisible();
  await expect(page.getByText('Rating is required')).toBeVisible();

  const text = `Bulk chain order arrived on time (${Date.now()})`;
  // An outside address would be fetched by the API (none is reachable here): a photo of the site.
  await page.getByLabel('Photo URL').fill('/images/reviewers/2.svg');
  await page.getByLabel('Review', { exact: true }).fill(text);
  await page.getByLabel('Rating').selectOption('4');
  await page.getByRole('button', { name: 'Add review' }).click();
  await expect(page.getByText('Product added successfully')).toBeVisible();
  await expect(page.getByLabel('Review', { exact: true })).toHaveValue('');

  const reviews = await api<Review[]>('GET', '/review?limit=100');
  // Published under the display name (emulatorSignUp's), never the email address.
  const mine = reviews.find((r) => r.review === text);
  expect(mine).toMatchObject({ name: 'E2E Rider', rating: 4 });
  expect(JSON.stringify(mine)).not.toContain(me.email);
});

test('a 401 on My Order signs the user out and clears the stored token', async ({ page }) => {
  await newCustomer(page);
  // A token the API no longer accepts (tampered signature) stands for an expired or revoked one.
  await page.addInitScript(() => {
    const token = localStorage.getItem('accessToken');
    if (token && !sessionStorage.getItem('tampered')) {
      sessionStorage.setItem('tampered', '1');
      localStorage.setItem('accessToken', `${token.slice(0, -4)}AAAA`);
    }
  });
  await page.goto('/dashboard/myOrder');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});
