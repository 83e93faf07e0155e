import { partListQuerySchema } from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { queryParser } from '../http/validate';

// The hot lists' query parser (http/validate.ts): a query string seen before is answered by one
// look-up, without Koa's parse; junk and refused queries make no entry.

/** Koa's parse of a query string, counted. */
function koaQuery(raw: string) {
  const calls = { n: 0 };
  const query = () => {
    calls.n += 1;
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      const had = out[k];
      out[k] = had === undefined ? v : ([] as string[]).concat(had, v);
    }
    return out;
  };
  return { query, calls };
}

it('answers a query string seen before from what it kept, without parsing it again', () => {
  const parse = queryParser(partListQuerySchema);
  const raw = 'q=brake&category=parts&inStock=true&sort=price&page=2';
  const first = koaQuery(raw);
  const a = parse.ofRequest(raw, first.query);
  expect(a).toMatchObject({ q: 'brake', category: 'parts', inStock: true, sort: 'price', page: 2 });
  const again = koaQuery(raw);
  expect(parse.ofRequest(raw, again.query)).toBe(a);
  expect(again.calls.n).toBe(0);
  // The same parameters in another order: parsed, and the same kept answer.
  const reordered = koaQuery('page=2&sort=price&inStock=true&category=parts&q=brake');
  expect(parse.ofRequest('page=2&sort=price&inStock=true&category=parts&q=brake', reordered.query)).toBe(a);
  expect(reordered.calls.n).toBe(1);
});

it('keeps no query string with a parameter the schema does not read, and no refused one', () => {
  const parse = queryParser(partListQuerySchema);
  const junk = 'page=1&utm_source=x';
  for (let i = 0; i < 2; i++) {
    const { query, calls } = koaQuery(junk);
    expect(parse.ofRequest(junk, query)).toMatchObject({ page: 1 });
    expect(calls.n).toBe(1);
  }
  const refused = 'page=0';
  for (let i = 0; i < 2; i++) {
    const { query, calls } = koaQuery(refused);
    expect(() => parse.ofRequest(refused, query)).toThrow(AppError);
    expect(calls.n).toBe(1);
  }
});
