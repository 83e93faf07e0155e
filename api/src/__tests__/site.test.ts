import { PartModel } from '../parts/model';
import { Sitemap } from '../site/sitemap';
import { uniqueEmail } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// What the shop's web servers fetch to serve the public site as search engines read it: a part
// page's head (title, canonical link, Open Graph, schema.org Product), the sitemap and robots.txt.

const SHOP = 'https://shop.example';
const API = 'https://api.shop.example';
const SERVICE_TOKEN = 'site-test-service-token-0123456789-abcdef';
const asShop = { headers: { 'x-service-token': SERVICE_TOKEN } };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('site', {
    ADMIN_EMAILS: uniqueEmail('siteadmin'),
    SHOP_URL: `${SHOP}/`,
    PUBLIC_API_URL: API,
    SERVICE_TOKEN,
    RATE_LIMIT_LISTING: '5/60',
  });
});
afterAll(() => t.close());

/** The JSON-LD blocks of a head, parsed. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
  );
}

describe("a part page's head", () => {
  it('names the part: title, description, canonical link, Open Graph and a schema.org Product', async () => {
    const id = await insertPart({
      name: 'Brake lever "Pro" <R>',
      price: 7.5,
      minOrderQty: 100,
      availableQty: 900,
    });
    const res = await call(t.base, 'GET', `/site/parts/${id}/head`, asShop);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = res.text;
    expect(html).toContain('<title>Brake lever &quot;Pro&quot; &lt;R&gt; - MotoParts</title>');
    expect(html).toContain(`<link rel="canonical" href="${SHOP}/parts/${id}" />`);
    expect(html).toContain('<meta name="description" content="A part used by the tests." />');
    expect(html).toContain(`<meta property="og:url" content="${SHOP}/parts/${id}" />`);
    expect(html).toContain(`<meta property="og:image" content="${SHOP}/images/parts/test.svg" />`);
    expect(html).not.toContain('noindex');
    expect(jsonLd(html)).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Brake lever "Pro" <R>',
        image: `${SHOP}/images/parts/test.svg`,
        description: 'A part used by the tests.',
        sku: id,
        url: `${SHOP}/parts/${id}`,
        offers: {
          '@type': 'Offer',
          url: `${SHOP}/parts/${id}`,
          price: '7.50',
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
          eligibleQuantity: { '@type': 'QuantitativeValue', minValue: 100 },
        },
      },
    ]);
  });

  it('keeps a hostile description inside its script element and names a hosted photo under the API', async () => {
    const text = 'Fits all. </script><script>alert(1)</script> <!-- end';
    const id = await insertPart({ text, availableQty: 50 });
    await PartModel.updateOne({ _id: id }, { $set: { img: '/uploads/0123456789abcdef.webp' } });
    const html = (await call(t.base, 'GET', `/site/parts/${id}/head`, asShop)).text;
    expect(html).not.toContain('<script>alert(1)');
    const [product] = jsonLd(html);
    expect(product?.description).toBe(text);
    expect(product?.image).toBe(`${API}/uploads/0123456789abcdef.webp`);
    // Fewer than one minimum order left: not buyable.
    expect(product?.offers).toMatchObject({ availability: 'https://schema.org/OutOfStock' });
  });

  it('an unknown, archived or malformed id is a 404 (the servers answer the page with noindex)', async () => {
    const archived = await insertPart();
    await PartModel.updateOne({ _id: archived }, { $set: { archived: true } });
    for (const id of ['0123456789abcdef01234567', archived, 'not-an-id']) {
      const res = await call(t.base, 'GET', `/site/parts/${id}/head`, asShop);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(res.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });
});

describe('the sitemap', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');

  it('lists the public pages and every part on sale, and follows a new one', async () => {
    const before = await call(t.base, 'GET', '/site/sitemap.xml', asShop);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(before.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    const onSale = await PartModel.find({ archived: { $ne: true } }, { _id: 1 }).lean();
    expect(locs(before.text).sort()).toEqual(
      [
        ...['/', '/parts', '/reviews', '/blogs', '/myPortfolio', '/login', '/signup'],
        ...onSale.map((p) => `/parts/${String(p._id)}`),
      ]
        .map((p) => SHOP + p)
        .sort(),
    );
    const added = await insertPart();
    const after = await call(t.base, 'GET', '/site/sitemap.xml', asShop);
    expect(locs(after.text)).toContain(`${SHOP}/parts/${added}`);
    await PartModel.updateOne({ _id: added }, { $set: { archived: true } });
    const archived = await call(t.base, 'GET', '/site/sitemap.xml', asShop);
    expect(locs(archived.text)).not.toContain(`${SHOP}/parts/${added}`);
  });

  it('past the limit of one file, is an index of files that list every address once', async () => {
    await insertPart();
    const total = 7 + (await PartModel.countDocuments({ archived: { $ne: true } }));
    const sitemap = new Sitemap(SHOP, 2);
    const index = (await sitemap.root()).toString();
    const files = Math.ceil(total / 2);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual(Array.from({ length: files }, (_, i) => `${SHOP}/sitemaps/${i + 1}.xml`));
    const listed: string[] = [];
    for (let n = 1; n <= files; n++) {
      const file = (await sitemap.file(n))?.toString() ?? '';
      expect(locs(file).length).toBeLessThanOrEqual(2);
      listed.push(...locs(file));
    }
    expect(new Set(listed).size).toBe(total);
    expect(await sitemap.file(files + 1)).toBeUndefined();
    expect(await sitemap.file(0)).toBeUndefined();
  });

  it('one file only: /sitemaps/<n>.xml is a 404, a malformed name a 400', async () => {
    expect((await call(t.base, 'GET', '/site/sitemaps/1.xml', asShop)).status).toBe(404);
    expect((await call(t.base, 'GET', '/site/sitemaps/..%2Fx', asShop)).status).toBe(400);
  });
});

it('robots.txt names the sitemap and keeps crawlers off the signed-in pages', async () => {
  const res = await call(t.base, 'GET', '/site/robots.txt');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(res.text).toContain(`Sitemap: ${SHOP}/sitemap.xml`);
  expect(res.text).toMatch(/^User-agent: \*$/m);
  expect(res.text).toMatch(/^Disallow: \/purchase\/$/m);
});

it('heads are not limited; the sitemap is, except for the shop’s servers', async () => {
  const id = await insertPart();
  // RATE_LIMIT_LISTING is 5 a minute here.
  for (let i = 0; i < 12; i++) {
    expect((await call(t.base, 'GET', `/site/parts/${id}/head`)).status).toBe(200);
    expect((await call(t.base, 'GET', '/site/sitemap.xml', asShop)).status).toBe(200);
  }
  const statuses = [];
  for (let i = 0; i < 8; i++) statuses.push((await call(t.base, 'GET', '/site/sitemap.xml')).status);
  expect(statuses).toContain(429);
});
