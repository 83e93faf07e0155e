import { expect, test } from '@playwright/test';
import type { Review } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { loginThroughUi } from '../support/auth';
import { API_URL } from '../support/env';
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
  const rider = await emulatorSignUp();
  await loginThroughUi(page, rider.email, rider.password);
  const first = await page.evaluate(() => localStorage.getItem('accessToken'));
  if (!first) throw new Error('no API token after sign-in');
  // The API refuses the page's next call, for real, as it refuses an expired token: the call
  // reaches it with a token it cannot verify. (A sign-out elsewhere would end the Firebase
  // sign-in too: auth-sign-in.spec.ts.)
  // Renewing is a new token exchange (PUT /user/:email). The new token can be byte for byte the
  // first one (same claims, issued within the same second), so the exchange is what is counted.
  let exchanges = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().startsWith(`${API_URL}/user/`)) exchanges += 1;
  });
  let refused = 0;
  await page.route(
    (url) => url.href.startsWith(`${API_URL}/order?`),
    async (route) => {
      if (refused > 0) return route.continue();
      refused += 1;
      const response = await route.fetch({
        headers: { ...route.request().headers(), authorization: 'Bearer not-a-token' },
      });
      expect(response.status()).toBe(401);
      await route.fulfill({ response });
    },
  );
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
  expect(refused).toBe(1);
  expect(exchanges).toBe(1);
  const second = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(second).toBeTruthy();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }),
  ).toBeVisible();
});
