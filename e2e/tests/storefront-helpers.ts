import { expect, type Locator, type Page } from '@playwright/test';
import type { Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignIn } from '../support/api';
import { DEMO } from '../support/env';

/**
 * Shared by the storefront/auth/shell specs. Signing in through the UI is covered by the auth
 * specs; other specs start from the session a real sign-in stores (our token + the user), which
 * is what the shell restores on load, so they stay fast and independent.
 */
export async function useStoredSession(
  page: Page,
  account: { email: string; password: string },
  displayName: string,
): Promise<string> {
  await emulatorSignIn(account.email, account.password);
  const token = await apiToken(account.email, account.password);
  const user = { email: account.email, displayName, photoURL: null };
  await page.addInitScript(
    ([t, u]) => {
      localStorage.setItem('accessToken', t);
      localStorage.setItem('motoparts.sessionUser', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  return token;
}

export const riderSession = (page: Page) => useStoredSession(page, DEMO.rider, 'Road Rider');
export const adminSession = (page: Page) => useStoredSession(page, DEMO.admin, 'Admin Rider');

export async function adminToken(): Promise<string> {
  return apiToken(DEMO.admin.email, DEMO.admin.password);
}

/** A part of our own with a small stock, so specs can reach the stock bound and never drain the seed. */
export async function createTestPart(
  availableQty: number,
  name = `E2E Test Part ${Date.now()}`,
  fields: Partial<Pick<Part, 'text' | 'img' | 'price' | 'category'>> = {},
): Promise<Part> {
  const token = await adminToken();
  const { part } = await api<{ part: Part }>('POST', '/parts', token, {
    name,
    text: 'A part created by the end-to-end tests to check the purchase page against a known stock.',
    img: '/images/parts/spin-on-oil-filter.svg',
    price: 2.5,
    qty: 100,
    availableQty,
    ...fields,
  });
  return part;
}

export async function deletePart(id: string): Promise<void> {
  await api('DELETE', `/parts/${id}`, await adminToken()).catch(() => undefined);
}

/** The page scrolls horizontally when its content is wider than the viewport. */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/**
 * Admin lists are paged: pages through with Next until `selector` matches a row. Each page is
 * looked at only once its own rows have arrived (a page change shows "Loading", not the old rows),
 * so a slow page is never skipped.
 */
export async function findListedRow(page: Page, selector: string): Promise<Locator> {
  const row = page.locator(selector);
  for (;;) {
    await expect(page.locator('tbody tr').first()).toBeVisible();
    if (await row.count()) return row;
    const next = page.getByRole('button', { name: 'Next', exact: true });
    if (!(await next.count()) || (await next.isDisabled())) throw new Error(`${selector} is not listed`);
    const pageLabel = await page.getByText(/^Page \d+ of \d+$/).textContent();
    await next.click();
    await expect(page.getByText(/^Page \d+ of \d+$/)).not.toHaveText(pageLabel ?? '');
  }
}

/**
 * Searches the catalogue for a part by its (unique) name and returns its card once the search's
 * own answer is shown. A card of the same part may already be on the first page before the search
 * runs; clicking it then races the results re-rendering under the pointer, and a press that moves
 * between pointerdown and pointerup is no click at all.
 */
export async function findInCatalogue(page: Page, name: string): Promise<Locator> {
  await page.getByRole('combobox', { name: 'Search' }).fill(name);
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === name);
  await expect(page.getByTestId('result-count')).toHaveText('1 part');
  await expect(page.locator('.catalogue-grid')).toHaveAttribute('aria-busy', 'false');
  const card = page
    .getByTestId('part-card')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expect(card).toBeVisible();
  return card;
}
