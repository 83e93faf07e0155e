import { expect, test } from '@playwright/test';
import { loginThroughUi } from '../support/auth';
import { DEMO } from '../support/env';

const CUSTOMER_MENU = ['My Profile', 'Add Review', 'My Order'];
const ADMIN_MENU = [
  'My Profile',
  'Overview',
  'Manage Order',
  'All Users',
  'Manage Products',
  'Add Product',
  'Reviews',
];

test('a customer sees My Profile, Add Review and My Order, and is refused admin pages', async ({ page }) => {
  await loginThroughUi(page, DEMO.rider.email, DEMO.rider.password);
  await page.goto('/dashboard');
  const menu = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(menu.getByRole('link')).toHaveText(CUSTOMER_MENU);
  await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
  await page.screenshot({ path: '/tmp/dashboard-customer-profile.png', fullPage: true });

  for (const path of ['overview', 'manageOrder', 'allUser', 'manageProduct', 'addProduct', 'reviews']) {
    await page.goto(`/dashboard/${path}`);
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await expect(page.getByText('This page is for admins only.')).toBeVisible();
  }
  await page.screenshot({ path: '/tmp/dashboard-not-allowed.png', fullPage: true });
  await page.getByRole('link', { name: 'Go to My Profile' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin sees My Profile and the six admin pages, and no customer pages', async ({ page }) => {
  await loginThroughUi(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto('/dashboard');
  const menu = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(menu.getByRole('link')).toHaveText(ADMIN_MENU);
  for (const [label, heading] of [
    ['Overview', 'Overview'],
    ['Manage Order', 'Manage Order'],
    ['All Users', 'All Users'],
    ['Manage Products', 'Manage Products'],
    ['Add Product', 'Add Product'],
    ['Reviews', 'Reviews'],
    ['My Profile', 'My Profile'],
  ]) {
    await menu.getByRole('link', { name: label }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(menu.getByRole('link', { name: label })).toHaveClass(/active/);
  }
  await page.goto('/dashboard/myOrder');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});

test('a signed-out visitor is sent to /login and comes back to the dashboard page', async ({ page }) => {
  await page.goto('/dashboard/myOrder');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel(/email/i).first().fill(DEMO.rider.email);
  await page
    .getByLabel(/password/i)
    .first()
    .fill(DEMO.rider.password);
  await page
    .locator('form')
    .getByRole('button', { name: /^login$/i })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/myOrder$/);
  await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
});
