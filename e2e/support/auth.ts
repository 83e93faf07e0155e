import { expect, type Page } from '@playwright/test';

/** Signs in through the real login page (auth remote + Firebase emulator + token exchange). */
export async function loginThroughUi(page: Page, email: string, password: string, from = '/login') {
  await page.goto(from);
  await page.getByLabel(/email/i).first().fill(email);
  await page.getByLabel(/password/i).first().fill(password);
  await page.locator('form').getByRole('button', { name: /^login$/i }).click();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
}
