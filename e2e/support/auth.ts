import { expect, type Page } from '@playwright/test';
import { apiToken } from './api';

/** Signs in through the real login page (auth remote + Firebase emulator + token exchange). */
export async function loginThroughUi(page: Page, email: string, password: string, from = '/login') {
  await page.goto(from);
  await page.getByLabel(/email/i).first().fill(email);
  await page
    .getByLabel(/password/i)
    .first()
    .fill(password);
  await page
    .locator('form')
    .getByRole('button', { name: /^login$/i })
    .click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }),
  ).toBeVisible();
}

/**
 * Starts the page already signed in: gets a real API token (emulator sign-in + token exchange)
 * and stores it where the shell restores sessions from, without going through the login UI.
 */
export async function seedSession(page: Page, email: string, password: string, displayName = 'Road Rider') {
  const token = await apiToken(email, password);
  await page.addInitScript(
    ({ t, user }) => {
      localStorage.setItem('accessToken', t);
      localStorage.setItem('motoparts.sessionUser', JSON.stringify(user));
    },
    { t: token, user: { email, displayName, photoURL: null } },
  );
  return token;
}
