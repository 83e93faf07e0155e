import { expect, test, type Page } from '@playwright/test';
import type { Cart, Part } from '@motoparts/contracts';
import { api, apiToken, emulatorSignUp } from '../support/api';
import { BASE_URL } from '../support/env';
import { adminToken, createTestPart, deletePart, hasHorizontalScroll } from './storefront-helpers';

/**
 * docs/product.md, Part page: `/parts/:id` is public. Its served HTML, before any script, names the
 * part (title, canonical link, schema.org Product) as the shell's server writes it from the API; an
 * unknown part is a 404 with noindex; the sitemap lists the parts and robots.txt names it. A
 * catalogue card opens the page, whose Add to cart works for a visitor who signs in on the way.
 */

const run = Date.now().toString(36);
let part: Part;
test.beforeAll(async () => {
  part = await createTestPart(800, `E2E Part Page ${run}`);
  await api('PUT', `/parts/${part._id}`, await adminToken(), {
    name: part.name,
    text: part.text,
    img: part.img,
    price: part.price,
    qty: part.qty,
    priceTiers: [{ fromQty: 500, price: 2.1 }],
  });
});
test.afterAll(async () => {
  await deletePart(part._id);
});

/** The JSON-LD blocks of a page's HTML, parsed. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
  );
}

test('the served part page names the part before any script; an unknown part is a 404 with noindex', async ({
  request,
}) => {
  const canonical = new URL(`/parts/${part._id}`, BASE_URL).toString();
  const res = await request.get(`/parts/${part._id}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain(`<title>${part.name} - MotoParts</title>`);
  expect(html).toContain(`<link rel="canonical" href="${canonical}" />`);
  expect(html).toContain(`<meta property="og:title" content="${part.name}" />`);
  expect(html).not.toContain('noindex');
  expect(jsonLd(html)).toEqual([
    expect.objectContaining({
      '@type': 'Product',
      name: part.name,
      sku: part._id,
      description: part.text,
      offers: expect.objectContaining({
        price: '2.50',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
      }) as unknown,
    }),
  ]);

  for (const path of ['/parts/0123456789abcdef01234567', '/parts/no-such-part']) {
    const missing = await request.get(path);
    expect({ path, status: missing.status() }).toEqual({ path, status: 404 });
    expect(await missing.text()).toContain('<meta name="robots" content="noindex"/>');
  }
});

test('the sitemap lists the part pages and follows a new part; robots.txt names it', async ({ request }) => {
  const sitemap = async () => (await request.get('/sitemap.xml')).text();
  const url = (p: Part) => `<loc>${new URL(`/parts/${p._id}`, BASE_URL).toString()}</loc>`;
  expect(await sitemap()).toContain(url(part));
  const added = await createTestPart(300, `E2E Sitemap ${run}`);
  try {
    expect(await sitemap()).toContain(url(added));
  } finally {
    await deletePart(added._id);
  }
  expect(await sitemap()).not.toContain(url(added));
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${new URL('/sitemap.xml', BASE_URL).toString()}`);
});

async function signIn(page: Page, account: { email: string; password: string }) {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel(/email/i).first().fill(account.email);
  await page
    .getByLabel(/password/i)
    .first()
    .fill(account.password);
  await page
    .locator('form')
    .getByRole('button', { name: /^login$/i })
    .click();
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('a catalogue card opens the part page; Add to cart signs a visitor in and adds the part', async ({
      page,
    }) => {
      const account = await emulatorSignUp(undefined, undefined, 'Part Page Rider');
      await page.goto(`/parts?q=${encodeURIComponent(part.name)}`);
      const card = page.getByTestId('part-card').filter({ hasText: part.name });
      await card.getByRole('link', { name: part.name, exact: true }).click();

      await expect(page).toHaveURL(new RegExp(`/parts/${part._id}$`));
      await expect(page.getByRole('heading', { level: 1, name: part.name })).toBeVisible();
      await expect(page.getByText(part.text)).toBeVisible();
      await expect(page.getByText('$2.50')).toBeVisible();
      await expect(page.getByTestId('price-tiers')).toContainText('From 500 pcs');
      await expect(page.getByTestId('price-tiers')).toContainText('$2.10 per piece');
      await expect(page.getByText('Minimum order')).toBeVisible();
      await expect(page.getByText('800 pcs')).toBeVisible();
      await expect(page).toHaveTitle(`${part.name} - MotoParts`);
      expect(await hasHorizontalScroll(page)).toBe(false);

      await page.getByRole('button', { name: 'Add to cart' }).click();
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/parts/${part._id}$`));
      await expect(page.getByText(`Added to your cart: 100 pieces of ${part.name}.`)).toBeVisible();
      await expect(page.getByTestId('cart-count')).toHaveText('1');
      const token = await apiToken(account.email, account.password);
      expect((await api<Cart>('GET', '/cart', token)).lines.map((l) => [l.partId, l.qty])).toEqual([
        [part._id, 100],
      ]);

      // Purchase leads on to the signed-in purchase page, as a card's does.
      await page.getByRole('link', { name: `Purchase ${part.name}` }).click();
      await expect(page).toHaveURL(new RegExp(`/purchase/${part._id}$`));
      await expect(page.getByTestId('quantity')).toHaveText('100');
    });
  });
}
