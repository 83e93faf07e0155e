import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Part } from '@motoparts/contracts';
import { api } from '../support/api';

/**
 * No public page moves while it loads: the prerendered first screens and the app's render agree
 * at a phone's width and a desktop's, and what arrives later takes room kept for it. Each page is
 * loaded cold and its layout shifts (PerformanceObserver, `layout-shift`, those not caused by
 * input) are summed until the page's content is there and the network is quiet: at most 0.05,
 * as Lighthouse's "good" CLS is 0.1.
 */

declare global {
  interface Window {
    __layoutShift: number;
  }
}

const MAX_SHIFT = 0.05;

/** Each public page and what shows once it has rendered. */
const PAGES: [string, (page: Page, part: Part) => Locator][] = [
  ['/', (page) => page.getByTestId('part-card').first()],
  ['/home', (page) => page.getByTestId('part-card').first()],
  ['/parts', (page) => page.getByTestId('part-card').first()],
  ['/parts/:id', (page, part) => page.getByRole('heading', { level: 1, name: part.name })],
  ['/reviews', (page) => page.getByRole('heading', { level: 1, name: 'Reviews' })],
  ['/blogs', (page) => page.getByRole('heading', { level: 1, name: 'Questions and answers' })],
  ['/myPortfolio', (page) => page.getByRole('heading', { level: 1, name: 'Nadia Karim' })],
  ['/login', (page) => page.getByRole('heading', { level: 1, name: 'Login' })],
  ['/signup', (page) => page.getByRole('heading', { level: 1, name: 'Sign Up' })],
];

let part: Part;
test.beforeAll(async () => {
  part = (await api<Part[]>('GET', '/parts?limit=1'))[0] as Part;
});

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    for (const [route, ready] of PAGES) {
      test(`${route} does not shift while it loads`, async ({ page }) => {
        await page.addInitScript(() => {
          window.__layoutShift = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput) window.__layoutShift += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(route.replace(':id', part._id));
        await expect(ready(page, part)).toBeVisible();
        await page.waitForLoadState('networkidle');
        // Every photo on screen has arrived (a late one must not push anything either).
        await page.waitForFunction(() =>
          Array.from(document.images).every((img) => img.complete || img.loading === 'lazy'),
        );
        expect(await page.evaluate(() => window.__layoutShift)).toBeLessThanOrEqual(MAX_SHIFT);
      });
    }
  });
}
