import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  PART_CATEGORIES,
  PRICE_BAND_IDS,
  isInStock,
  priceBandOf,
  type Part,
  type PartFacets,
} from '@motoparts/contracts';
import { PartModel } from '../parts/model';
import { SearchIndex } from '../parts/search-index';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// The catalogue's search (parts/search-index.ts) through GET /parts, on a catalogue of this file's
// own parts (no seed), so every expected list is known; and the API's gzip (http/compress.ts).

let t: TestApp;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp('search');
  const parts = [
    ['plug', 'Iridium Spark Plug', 'Long-life plug for four-stroke engines.', 'parts', 12.5, 3000],
    ['socket', 'Sparkplug Socket Wrench', 'Deep socket for removing plugs.', 'tools', 18, 50],
    ['lube', 'Chain Lube Spray', 'Keeps the spark of a new chain.', 'parts', 9, 500],
    ['caliper', 'Brake Caliper Rebuild Kit', 'Seals and pistons for one caliper.', 'parts', 45, 800],
    ['gloves', 'Racing Gloves', 'Leather gloves with knuckle armour.', 'gear', 120, 400],
    ['polish', 'Sparkle Polish', 'Chrome polish for the tank.', 'tools', 300, 0],
    ['spork', 'Spork Tool', 'A camping tool for the road.', 'gear', 7, 1000],
  ] as const;
  for (const [key, name, text, category, price, availableQty] of parts) {
    ids[key] = await insertPart({ name, text, category, price, availableQty, minOrderQty: 100 });
  }
});
afterAll(() => t.close());

const search = async (query: string) => {
  const res = await call<Part[]>(t.base, 'GET', `/parts?${query}`);
  expect(res.status).toBe(200);
  return res;
};
const names = async (query: string) => (await search(query)).body.map((p) => p.name);
const q = (text: string) => `q=${encodeURIComponent(text)}&limit=100`;

describe('the search forgives typos', () => {
  it('finds a word with one typo in four or more letters', async () => {
    expect(await names(q('calliper'))).toEqual(['Brake Caliper Rebuild Kit']); // one letter too many
    expect(await names(q('glves'))).toEqual(['Racing Gloves']); // one missing
    expect(await names(q('brakr kit'))).toEqual(['Brake Caliper Rebuild Kit']); // one wrong
  });

  it('counts two swapped letters as one typo; none in three letters, two not in six', async () => {
    expect(await names(q('glvoes'))).toEqual(['Racing Gloves']);
    expect(await names(q('kir'))).toEqual([]);
    expect(await names(q('kit'))).toEqual(['Brake Caliper Rebuild Kit']);
    expect(await names(q('gxxves'))).toEqual([]);
  });

  it('matches each word by prefix too', async () => {
    expect(await names(q('irid plu'))).toEqual(['Iridium Spark Plug']);
  });
});

describe('joined and split words', () => {
  it('finds "Spark Plug" for "sparkplug" and "Sparkplug" for "spark plug"', async () => {
    const joined = await names(q('sparkplug'));
    expect(joined).toEqual(expect.arrayContaining(['Iridium Spark Plug', 'Sparkplug Socket Wrench']));
    expect(joined).toHaveLength(2);
    const split = await names(q('spark plug'));
    expect(split).toEqual(expect.arrayContaining(['Iridium Spark Plug', 'Sparkplug Socket Wrench']));
    expect(split).toHaveLength(2);
  });

  it('finds "Spark Plug" for "spark plgu" (a typo inside the joined pair)', async () => {
    expect(await names(q('spark plgu'))).toContain('Iridium Spark Plug');
    expect(await names(q('iridium spark plgu'))).toEqual(['Iridium Spark Plug']);
  });
});

describe('every word must match', () => {
  it('in any order, in the name or the description; one word that matches nothing leaves nothing', async () => {
    expect(await names(q('plug iridium'))).toEqual(['Iridium Spark Plug']);
    expect(await names(q('pistons brake'))).toEqual(['Brake Caliper Rebuild Kit']);
    expect(await names(q('spark gloves'))).toEqual([]);
    const none = await search(q('iridium zzqx'));
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('a search with no word in it (only punctuation) finds nothing', async () => {
    expect(await names(q('.*'))).toEqual([]);
  });
});

describe('ranking', () => {
  it('without a sort: exact over prefix over typo, the name over the description', async () => {
    const found = await names(q('spark'));
    // exact in the name; exact in the description; prefixes in the name; a typo ("spork").
    expect(found[0]).toBe('Iridium Spark Plug');
    expect(found[1]).toBe('Chain Lube Spray');
    expect(new Set(found.slice(2, 4))).toEqual(new Set(['Sparkplug Socket Wrench', 'Sparkle Polish']));
    expect(found[4]).toBe('Spork Tool');
    expect(found).toHaveLength(5);
  });

  it('an explicit sort keeps its order, and paging and Link still work', async () => {
    const byPrice = (await search(`${q('spark')}&sort=price`)).body.map((p) => p.price);
    expect(byPrice).toEqual([7, 9, 12.5, 18, 300]);
    const page = await search('q=spark&limit=2&page=2');
    expect(page.body.map((p) => p.name)).toHaveLength(2);
    expect(page.headers.get('x-total-count')).toBe('5');
    expect(page.headers.get('link')).toContain('</parts?limit=2&page=3&q=spark>; rel="next"');
    const [first, second] = await names(q('spark'));
    const pageOne = (await search('q=spark&limit=2')).body.map((p) => p.name);
    expect(pageOne).toEqual([first, second]);
  });
});

/** The facets the test counts itself from the search's whole list and the filters. */
function countedFacets(all: Part[], f: { category?: string; inStock?: boolean; price?: string }): PartFacets {
  const count = <K extends string>(keys: readonly K[], key: (p: Part) => K, keep: (p: Part) => boolean) =>
    Object.fromEntries(keys.map((k) => [k, all.filter((p) => keep(p) && key(p) === k).length])) as Record<
      K,
      number
    >;
  const cat = (p: Part) => f.category === undefined || p.category === f.category;
  const stock = (p: Part) => f.inStock === undefined || isInStock(p) === f.inStock;
  const band = (p: Part) => f.price === undefined || priceBandOf(p.price) === f.price;
  return {
    category: count(
      PART_CATEGORIES,
      (p) => p.category,
      (p) => stock(p) && band(p),
    ),
    inStock: count(
      ['true', 'false'] as const,
      (p) => (isInStock(p) ? 'true' : 'false'),
      (p) => cat(p) && band(p),
    ),
    price: count(
      PRICE_BAND_IDS,
      (p) => priceBandOf(p.price),
      (p) => cat(p) && stock(p),
    ),
  };
}

const facetsOf = (res: { headers: Headers }) =>
  JSON.parse(res.headers.get('x-facets') ?? 'null') as PartFacets;

describe('facets', () => {
  it('are asked for, beside the unchanged list, and equal the counts of the search', async () => {
    const plain = await search(q('spark'));
    expect(plain.headers.get('x-facets')).toBeNull();
    const all = plain.body;
    const withFacets = await search(`${q('spark')}&facets=true`);
    expect(withFacets.body).toEqual(all);
    expect(facetsOf(withFacets)).toEqual(countedFacets(all, {}));
    expect(facetsOf(withFacets).category).toEqual({ parts: 2, tools: 2, gear: 1 });

    const tools = await search(`${q('spark')}&facets=true&category=tools`);
    expect(tools.body.map((p) => p.category)).toEqual(['tools', 'tools']);
    expect(facetsOf(tools)).toEqual(countedFacets(all, { category: 'tools' }));
    const narrowed = await search(`${q('spark')}&facets=true&inStock=true&price=under-25`);
    expect(facetsOf(narrowed)).toEqual(countedFacets(all, { inStock: true, price: 'under-25' }));
    expect(narrowed.body.every((p) => isInStock(p) && p.price < 25)).toBe(true);
    // Served again from the cache, with the same header.
    expect(facetsOf(await search(`${q('spark')}&facets=true&inStock=true&price=under-25`))).toEqual(
      facetsOf(narrowed),
    );
  });

  it('without a search they count the whole catalogue', async () => {
    const all = (await search('limit=100')).body;
    expect(facetsOf(await search('limit=1&facets=true'))).toEqual(countedFacets(all, {}));
  });

  it('a bad facets or price value is a 400 naming it', async () => {
    for (const [query, field] of [
      ['facets=yes', 'facets'],
      ['price=cheap', 'price'],
    ]) {
      const res = await call<{ error: { details: { path: string }[] } }>(t.base, 'GET', `/parts?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d) => d.path)).toEqual([field]);
    }
  });
});

describe('the index follows the catalogue', () => {
  it('through creates, edits, deletes and stock changes', async () => {
    expect(await names(q('carburetor'))).toEqual([]);
    const id = await insertPart({
      name: 'Carburetor Jet Set',
      text: 'Main jets.',
      price: 30,
      availableQty: 0,
    });
    expect(await names(q('carburettor'))).toEqual(['Carburetor Jet Set']);
    const before = facetsOf(await search(`${q('carburetor')}&facets=true`));
    expect(before.inStock).toEqual({ true: 0, false: 1 });

    // An edit of the name and description: the old words go, the new ones are found.
    await PartModel.updateOne({ _id: id }, { $set: { name: 'Throttle Body Jets', text: 'Idle jets.' } });
    expect(await names(q('carburetor'))).toEqual([]);
    expect(await names(q('throttel body'))).toEqual(['Throttle Body Jets']);
    expect(await names(q('idle jets'))).toEqual(['Throttle Body Jets']);

    // A stock change (an in-place write): the list and the counts follow.
    await PartModel.updateOne({ _id: id }, { $inc: { availableQty: 500 } });
    expect(facetsOf(await search(`${q('throttle')}&facets=true`)).inStock).toEqual({ true: 1, false: 0 });
    expect(await names(`${q('throttle')}&inStock=true`)).toEqual(['Throttle Body Jets']);

    await PartModel.deleteOne({ _id: id });
    expect(await names(q('throttle'))).toEqual([]);
    expect(await names(q('idle jets'))).toEqual([]);
  });
});

describe('a reload re-indexes only what changed', () => {
  it('sync adds, re-indexes and drops part by part, and touches nothing when nothing changed', () => {
    const index = new SearchIndex();
    const guide = { id: 'a', name: 'Chain Guide', text: 'Nylon.' };
    const lever = { id: 'c', name: 'Brake Lever', text: 'Alloy.' };
    const parts = [guide, { id: 'b', name: 'Chain Tensioner', text: 'Steel.' }, lever];
    expect(index.sync(parts)).toBe(3);
    // The same catalogue read again (a TTL reload): nothing to do.
    expect(index.sync(parts.map((p) => ({ ...p })))).toBe(0);
    // One renamed, one gone, one unchanged: two touched.
    expect(index.sync([{ ...guide, name: 'Chain Slider' }, lever])).toBe(2);
    expect(index.size).toBe(2);
    expect([...index.search('slider').keys()]).toEqual(['a']);
    expect([...index.search('guide').keys()]).toEqual([]);
    expect([...index.search('tensioner').keys()]).toEqual([]);
  });
});

/** A GET whose body is read as the bytes sent (fetch would decode gzip itself). */
function rawGet(path: string, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = request(`${t.base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compression', () => {
  it('gzips a large JSON answer for a client that accepts it, the same JSON decoded', async () => {
    for (const path of ['/parts?limit=100&sort=name', '/openapi.json']) {
      // Twice: the first is the route's answer, the second the cached one sent in front of Koa.
      for (let i = 0; i < 2; i++) {
        const gz = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
        const plain = await rawGet(path);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body.length).toBeGreaterThanOrEqual(1024);
        expect(gz.status).toBe(200);
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
        expect(gz.body.length).toBeLessThan(plain.body.length);
        expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
        const decoded = gunzipSync(gz.body);
        expect(decoded.equals(plain.body)).toBe(true);
        expect(JSON.parse(decoded.toString())).toEqual(JSON.parse(plain.body.toString()));
        expect(gz.headers.etag).toBe(plain.headers.etag);
      }
    }
  });

  it('sends identity when the body is small or gzip is not accepted', async () => {
    for (let i = 0; i < 2; i++) {
      const small = await rawGet(`/parts/${ids.plug}`, { 'accept-encoding': 'gzip' });
      expect(small.status).toBe(200);
      expect(small.body.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect((JSON.parse(small.body.toString()) as Part).name).toBe('Iridium Spark Plug');

      const refused = await rawGet('/parts?limit=100', { 'accept-encoding': 'gzip;q=0, identity' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect((JSON.parse(refused.body.toString()) as Part[]).length).toBeGreaterThan(5);
    }
  });

  it('a 304 to If-None-Match whatever the encoding', async () => {
    const first = await rawGet('/parts?limit=100', { 'accept-encoding': 'gzip' });
    const again = await rawGet('/parts?limit=100', {
      'accept-encoding': 'gzip',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});
