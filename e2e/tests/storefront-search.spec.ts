import { expect, test, type Page } from '@playwright/test';
import type { Part } from '@motoparts/contracts';
import { createTestPart, deletePart, hasHorizontalScroll, riderSession } from './storefront-helpers';

/**
 * The catalogue's search as a shopper on a phone or a desktop uses it: a misspelled search still
 * finds the part, the box suggests parts from two letters, and the filters count what they would
 * list. Parts of our own, each name holding this run's word, so the counts are known.
 */
const RUN = `Srch${Date.now().toString(36)}`;
const created: string[] = [];

async function makePart(
  name: string,
  { availableQty = 500, ...fields }: Partial<Pick<Part, 'availableQty' | 'price' | 'category'>> = {},
): Promise<Part> {
  const part = await createTestPart(availableQty, name, {
    text: `Made by the search tests (${RUN}).`,
    img: '/images/parts/steel-rear-sprocket-42t.svg',
    price: 19.5,
    ...fields,
  });
  created.push(part._id);
  return part;
}

let rotor: Part;
test.beforeAll(async () => {
  rotor = await makePart(`${RUN} Titanium Brake Rotor`, { price: 89 });
  await makePart(`${RUN} Titanium Exhaust Clamp`, { category: 'tools', price: 12 });
  await makePart(`${RUN} Titanium Visor Screws`, { category: 'gear', price: 8, availableQty: 0 });
});
test.afterAll(async () => {
  for (const id of created.splice(0)) await deletePart(id);
});

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search' });

async function openCatalogue(page: Page) {
  await riderSession(page);
  await page.goto('/');
  await page.getByRole('link', { name: 'Browse parts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All parts, tools and gear' })).toBeVisible();
  await expect(page.getByTestId('part-card').first()).toBeVisible();
}

for (const width of [375, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('a misspelled search finds the part, and its card opens it', async ({ page }) => {
      await openCatalogue(page);
      const words = `${RUN} titanum brak rotr`;
      await searchBox(page).fill(words);
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === words);
      await expect(page.getByTestId('result-count')).toHaveText('1 part');
      await expect(page.locator('.catalogue-grid')).toHaveAttribute('aria-busy', 'false');
      const card = page
        .getByTestId('part-card')
        .filter({ has: page.getByRole('heading', { name: rotor.name, exact: true }) });
      await card.getByRole('link', { name: rotor.name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/parts/${rotor._id}$`));
      await expect(page.getByRole('heading', { level: 1, name: rotor.name })).toBeVisible();
    });

    test('from two letters typed the box suggests parts; choosing one opens it', async ({ page }) => {
      await openCatalogue(page);
      const box = searchBox(page);
      const list = page.getByRole('listbox', { name: 'Suggested parts' });
      await box.click();
      await box.pressSequentially('t');
      // One letter: nothing suggested (the list stays closed).
      await expect(box).toHaveAttribute('aria-expanded', 'false');
      await expect(list).toBeHidden();

      await box.fill(`${RUN} titanium`);
      await expect(list).toBeVisible();
      await expect(box).toHaveAttribute('aria-expanded', 'true');
      const options = list.getByRole('option');
      await expect(options).toHaveCount(3);
      await expect(options).toContainText([`${RUN} Titanium`, `${RUN} Titanium`, `${RUN} Titanium`]);
      expect(await hasHorizontalScroll(page)).toBe(false);

      // The keyboard: Down marks the first, Escape closes the list.
      await box.press('ArrowDown');
      await expect(options.first()).toHaveAttribute('aria-selected', 'true');
      await expect(box).toHaveAttribute(
        'aria-activedescendant',
        (await options.first().getAttribute('id')) ?? '',
      );
      await box.press('Escape');
      await expect(list).toBeHidden();

      // Typed on with a typo: the list follows; a click on the rotor opens it.
      await box.fill(`${RUN} rotr`);
      await expect(options).toHaveCount(1);
      await options.getByRole('link', { name: rotor.name }).click();
      await expect(page).toHaveURL(new RegExp(`/parts/${rotor._id}$`));
      await expect(page.getByRole('heading', { level: 1, name: rotor.name })).toBeVisible();
    });

    test('the filters show how many parts of the search each choice lists', async ({ page }) => {
      await openCatalogue(page);
      // Enter searches at once and closes the suggestions.
      await searchBox(page).fill(RUN);
      await searchBox(page).press('Enter');
      await expect(page.getByRole('listbox', { name: 'Suggested parts' })).toBeHidden();
      await expect(page.getByTestId('result-count')).toHaveText('3 parts');
      const category = page.getByLabel('Category');
      await expect(category.locator('option[value="parts"]')).toHaveText('Parts (1)');
      await expect(category.locator('option[value="tools"]')).toHaveText('Tools (1)');
      await expect(category.locator('option[value="gear"]')).toHaveText('Gear (1)');
      const price = page.getByLabel('Price');
      await expect(price.locator('option[value="under-25"]')).toHaveText('Under $25 (2)');
      await expect(price.locator('option[value="25-100"]')).toHaveText('$25 to $100 (1)');
      await expect(page.locator('.catalogue-check')).toContainText('In stock only (2)');
      expect(await hasHorizontalScroll(page)).toBe(false);

      // Choosing a band lists its parts, and the other filters count within it.
      await price.selectOption('under-25');
      await expect(page).toHaveURL(/price=under-25/);
      await expect(page.getByTestId('result-count')).toHaveText('2 parts');
      await expect(category.locator('option[value="parts"]')).toHaveText('Parts (0)');
      await expect(page.locator('.catalogue-check')).toContainText('In stock only (1)');
      await page.getByLabel('In stock only').check();
      await expect(page.getByTestId('result-count')).toHaveText('1 part');
      await expect(page.getByTestId('part-card')).toContainText(`${RUN} Titanium Exhaust Clamp`);
    });
  });
}
