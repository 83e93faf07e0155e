import { expect, test } from '@playwright/test';
import { DEMO } from '../support/env';
import { loginThroughUi } from '../support/auth';
import { createTestPart, deletePart, riderSession } from './storefront-helpers';

test.describe('top bar and routes', () => {
  test('signed out: Home, Blogs, Reviews, My Portfolio and Login; no Dashboard', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Blogs', 'Reviews', 'My Portfolio', 'Login']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /account menu/i })).toHaveCount(0);
  });

  test('every public route has its page and title', async ({ page }) => {
    const routes: [string, string, RegExp | string][] = [
      ['/', 'Home - MotoParts', 'Motorcycle parts in bulk, straight from stock'],
      ['/home', 'Home - MotoParts', 'Motorcycle parts in bulk, straight from stock'],
      ['/purchase', 'Home - MotoParts', 'Motorcycle parts in bulk, straight from stock'],
      ['/blogs', 'Blogs - MotoParts', 'Questions and answers'],
      ['/reviews', 'Reviews - MotoParts', 'Reviews'],
      ['/myPortfolio', 'My Portfolio - MotoParts', 'Nadia Karim'],
      ['/login', 'Login - MotoParts', 'Login'],
      ['/signup', 'Sign Up - MotoParts', 'Sign Up'],
    ];
    for (const [path, title, heading] of routes) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(title);
    }
  });

  test('an unknown path shows the not-found image', async ({ page }) => {
    await page.goto('/no/such/page');
    const img = page.getByRole('img', { name: /page not found/i });
    await expect(img).toBeVisible();
    // Visible is not loaded: under load the image's bytes may still be on their way. Wait for the
    // load to settle, then require a real picture (a broken image settles with no width).
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete), {
        message: 'the image finished loading',
      })
      .toBe(true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    await expect(page).toHaveTitle('Not Found - MotoParts');
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the footer shows its static links', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Bulk parts', 'Reviews', 'Blogs', 'My Portfolio', 'Terms of use', 'Privacy policy']) {
      await expect(footer.getByRole('link', { name })).toBeVisible();
    }
    await expect(footer).toContainText('MotoParts. All rights reserved.');
  });
});

test.describe('protected routes', () => {
  test('a signed-out visitor goes to /login and comes back to the page after login', async ({ page }) => {
    const part = await createTestPart(500);
    try {
      await page.goto(`/purchase/${part._id}`);
      await expect(page).toHaveURL(/\/login$/);
      await page.getByLabel('Email').fill(DEMO.rider.email);
      await page.getByLabel('Password').fill(DEMO.rider.password);
      await page.locator('form').getByRole('button', { name: 'Login', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/purchase/${part._id}$`));
      await expect(page.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
    } finally {
      await deletePart(part._id);
    }
  });

  test('a signed-out visitor sent from the dashboard returns to it', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await loginThroughUi(page, DEMO.rider.email, DEMO.rider.password, page.url());
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('signed in', () => {
  test('the top bar shows Dashboard and the avatar menu with name, Update profile and Sign Out', async ({
    page,
  }) => {
    await riderSession(page);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);

    const avatar = page.getByRole('button', { name: 'Account menu for Road Rider' });
    // No photo: the default image stands in.
    await expect(avatar.locator('img')).toHaveAttribute('src', '/images/avatar-default.svg');
    await avatar.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText('Road Rider', { exact: true })).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Update profile' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await avatar.click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(nav.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  });

  test('the avatar menu closes with Escape', async ({ page }) => {
    await riderSession(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu for Road Rider' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });
});
