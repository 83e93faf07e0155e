import { expect, test } from '@playwright/test';
import type { Review } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { loginThroughUi } from '../support/auth';
import { adminSession } from './storefront-helpers';

test('an admin deletes a review from the dashboard Reviews page; the public list no longer has it', async ({
  page,
}) => {
  const author = await emulatorSignUp(undefined, undefined, 'Mo Derated');
  const token = await apiToken(author.email, author.password);
  const text = `Spam to moderate ${Date.now()}`;
  const posted = await api<{ review: Review }>('POST', '/review', token, {
    img: '/images/reviewers/1.svg',
    review: text,
    rating: 1,
  });
  expect(posted.review.name).toBe('Mo Derated');

  await adminSession(page);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reviews' }).click();
  await expect(page.getByRole('heading', { name: 'Reviews', level: 1 })).toBeVisible();
  const row = page.locator(`tr[data-review-id="${posted.review._id}"]`);
  await expect(row).toContainText(text);
  await expect(row).toContainText('Mo Derated');
  await expect(page.locator('table')).not.toContainText('@');
  await row.getByRole('button', { name: 'Delete the review by Mo Derated' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByText('The review by Mo Derated was deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  const after = await api<Review[]>('GET', '/review');
  expect(after.map((r) => r.review)).not.toContain(text);
});

test('a refused API token is renewed silently from the Firebase session', async ({ page }) => {
  // A fresh account: signing out on the API ends every token of the account, and other specs
  // use the demo accounts' tokens at the same time.
  const rider = await emulatorSignUp();
  await loginThroughUi(page, rider.email, rider.password);
  const first = await page.evaluate(() => localStorage.getItem('accessToken'));
  if (!first) throw new Error('no API token after sign-in');
  // Signing out elsewhere ends this token on the API, as its expiry would.
  await api('DELETE', '/session', first);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard', exact: true })
    .click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  await expect(page.getByRole('heading', { name: 'My Order', level: 1 })).toBeVisible();
  // Still signed in, with a new token that the API accepts.
  await expect(
    page
      .getByRole('table')
      .or(page.getByText(/no orders/i))
      .first(),
  ).toBeVisible();
  const second = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(second).not.toBe(first);
  expect(second).toBeTruthy();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }),
  ).toBeVisible();
});
