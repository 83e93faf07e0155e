import { parse } from 'csv-parse/sync';
import type { Order, Part, PartImportReport } from '@motoparts/contracts';
import type { WriteScope } from '../lib/write-feed';
import { PartModel, partWrites } from '../parts/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { invariantProblems, readStock } from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

type Err = { error: { code: string; message: string } };

let t: TestApp;
let customer: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  t = await startTestApp('parts_import', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const HEADER = 'name,text,img,price,qty,availableQty,category';
/** A CSV file from its lines (CRLF, as spreadsheets write them). */
const csv = (...lines: string[]) => lines.join('\r\n') + '\r\n';
/** A unique part name for one test. */
const named = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

const importCsv = (body: string | Buffer, { dryRun = false, token = admin.token, type = 'text/csv' } = {}) =>
  call<PartImportReport & Err>(t.base, 'POST', `/import/parts${dryRun ? '?dryRun=true' : ''}`, {
    token,
    raw: body,
    headers: { 'content-type': type },
  });

/** Every part as stored, by id, without the fields a write always changes. */
async function catalogue(): Promise<Map<string, unknown>> {
  const docs = await PartModel.find({}).lean();
  return new Map(docs.map(({ updatedAt: _u, ...d }) => [String(d._id), d]));
}

async function exportFile(): Promise<{ text: string; rows: Record<string, string>[] }> {
  const res = await fetch(`${t.base}/export/parts.csv`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="parts.csv"');
  const text = await res.text();
  return { text, rows: parse(text, { columns: true }) as Record<string, string>[] };
}

const byName = (name: string) => PartModel.findOne({ name }).lean();

describe('access', () => {
  it('only admins import and export (401 anonymous, 403 a customer), and nothing is written', async () => {
    const name = named('Access');
    const file = csv(HEADER, `${name},Text.,/images/parts/x.svg,5.00,1,10,parts`);
    expect((await importCsv(file, { token: '' })).status).toBe(401);
    expect((await importCsv(file, { token: customer.token })).status).toBe(403);
    expect((await call(t.base, 'GET', '/export/parts.csv')).status).toBe(401);
    expect((await call(t.base, 'GET', '/export/parts.csv', { token: customer.token })).status).toBe(403);
    expect(await byName(name)).toBeNull();
  });
});

describe('dry run, row errors and apply', () => {
  it('a dry run writes nothing and reports what applying then does, errors numbered as spreadsheet rows', async () => {
    const [a, b, c] = [named('Alpha'), named('Bravo'), named('Charlie')];
    const file = csv(
      HEADER,
      // Row 2 spans two lines of the file: the rows below keep their spreadsheet numbers.
      `${a},"Two lines,\r\nof text.",/images/parts/a.svg,5.00,10,100,parts`,
      `${b},Bad price.,/images/parts/b.svg,five,10,100,parts`,
      '',
      `${c},Fine.,/images/parts/c.svg,7.25,2,0,tools`,
      `,No name.,notaurl,0,0,-1,nope`,
    );
    const before = await catalogue();
    const dry = await importCsv(file, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(await catalogue()).toEqual(before);
    expect(dry.body.created).toBe(2);
    expect(dry.body.updated).toBe(0);
    expect(dry.body.unchanged).toBe(0);
    expect(dry.body.errors).toEqual([
      { row: 3, field: 'price', message: 'must be a number' },
      { row: 6, field: 'availableQty', message: 'must be a number' },
      { row: 6, field: 'name', message: 'is required' },
      { row: 6, field: 'img', message: 'must be an http(s) URL or a /path on this site' },
      { row: 6, field: 'price', message: expect.any(String) },
      { row: 6, field: 'qty', message: expect.any(String) },
      { row: 6, field: 'category', message: expect.any(String) },
    ]);

    const applied = await importCsv(file);
    expect(applied.body).toEqual(dry.body);
    const alpha = await byName(a);
    expect(alpha).toMatchObject({
      text: 'Two lines,\r\nof text.',
      priceCents: 500,
      minOrderQty: 10,
      availableQty: 100,
    });
    expect(await byName(c)).toMatchObject({
      priceCents: 725,
      minOrderQty: 2,
      availableQty: 0,
      category: 'tools',
    });
    expect(await byName(b)).toBeNull();
    // The catalogue (GET /parts, from its cache) shows the new part at once.
    const listed = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent(a)}`);
    expect(listed.body.map((p) => p.name)).toEqual([a]);

    // Applying the same file again changes nothing: the names are taken now.
    const between = await catalogue();
    const again = await importCsv(file);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 0 });
    expect(
      again.body.errors.filter((e) => e.field === 'name' && e.message.includes('already exists')),
    ).toHaveLength(2);
    expect(await catalogue()).toEqual(between);
  });

  it('names already in the catalogue (any case) or earlier in the file are row errors', async () => {
    const taken = named('Taken');
    await insertPart({ name: taken });
    const fresh = named('Fresh');
    const res = await importCsv(
      csv(
        HEADER,
        `${taken.toUpperCase()},Dup.,/images/parts/x.svg,5.00,1,10,parts`,
        `${fresh},New.,/images/parts/x.svg,5.00,1,10,parts`,
        `${fresh},Again.,/images/parts/x.svg,6.00,1,10,parts`,
      ),
    );
    expect(res.body).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      errors: [
        { row: 2, field: 'name', message: 'a part with this name already exists' },
        { row: 4, field: 'name', message: 'is the same as the name in row 3' },
      ],
    });
    expect(await PartModel.countDocuments({ name: fresh })).toBe(1);
  });
});

describe('the catalogue', () => {
  it("hears of an import's writes once, before the answer; writes outside it as they happen", async () => {
    const scopes: WriteScope[] = [];
    const stop = partWrites.subscribe((scope) => scopes.push(scope));
    try {
      const names = [named('Batch one'), named('Batch two'), named('Batch three')];
      const res = await importCsv(
        csv(HEADER, ...names.map((n) => `${n},T.,/images/parts/x.svg,5.00,1,10,parts`)),
      );
      expect(res.body).toEqual({ created: 3, updated: 0, unchanged: 0, errors: [] });
      expect(scopes).toEqual(['all']);
      const listed = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('Batch')}&limit=100`);
      expect(listed.body.map((p) => p.name)).toEqual(expect.arrayContaining(names));
      await insertPart();
      expect(scopes).toEqual(['all', 'all']);
    } finally {
      stop();
    }
  });
});

describe('updates by _id', () => {
  it('updates the parts whose row changed, leaves equal rows unchanged, and a re-apply is a no-op', async () => {
    const id = await insertPart({ name: named('Editable'), price: 10, minOrderQty: 5, availableQty: 40 });
    const other = await insertPart({ name: named('Untouched'), availableQty: 7 });
    const { rows } = await exportFile();
    const row = rows.find((r) => r._id === id);
    const same = rows.find((r) => r._id === other);
    if (!row || !same) throw new Error('exported rows missing');
    const header = Object.keys(row).join(',');
    const line = (r: Record<string, string>) =>
      Object.values(r)
        .map((v) => `"${v.replace(/"/g, '""')}"`)
        .join(',');
    const file = csv(header, line({ ...row, price: '9.50', name: `${row.name} v2` }), line(same));

    const dry = await importCsv(file, { dryRun: true });
    expect(dry.body).toEqual({ created: 0, updated: 1, unchanged: 1, errors: [] });
    expect(await PartModel.findById(id).lean()).toMatchObject({ priceCents: 1000 });

    const res = await importCsv(file);
    expect(res.body).toEqual({ created: 0, updated: 1, unchanged: 1, errors: [] });
    expect(await PartModel.findById(id).lean()).toMatchObject({
      name: `${row.name} v2`,
      priceCents: 950,
      availableQty: 40,
    });
    const part = await call<Part>(t.base, 'GET', `/parts/${id}`);
    expect(part.body.price).toBe(9.5);

    const after = await catalogue();
    const again = await importCsv(file);
    expect(again.body).toEqual({ created: 0, updated: 0, unchanged: 2, errors: [] });
    expect(await catalogue()).toEqual(after);
  });

  it('refuses an unknown or malformed _id, the same part twice and a stock that differs', async () => {
    const id = await insertPart({ name: named('Stocked'), availableQty: 50 });
    const name = (await PartModel.findById(id).lean())?.name ?? '';
    const header = `_id,${HEADER}`;
    const before = await catalogue();
    const res = await importCsv(
      csv(
        header,
        `0123456789abcdef01234567,${named('Ghost')},T.,/images/parts/x.svg,5.00,1,10,parts`,
        `nothex,${named('Bad')},T.,/images/parts/x.svg,5.00,1,10,parts`,
        `${id},${name},Changed.,/images/parts/x.svg,5.00,1,49,parts`,
        `${id},${name},Changed.,/images/parts/x.svg,5.00,1,,parts`,
        `${id},${name},Again.,/images/parts/x.svg,5.00,1,,parts`,
      ),
    );
    expect(res.body.errors).toEqual([
      { row: 2, field: '_id', message: 'no part has this id' },
      { row: 3, field: '_id', message: 'must be a part id (24 hexadecimal digits), or empty for a new part' },
      {
        row: 4,
        field: 'availableQty',
        message: 'is 50 now, not 49: the stock changes only through restock and orders',
      },
      { row: 6, field: '_id', message: 'is updated in row 5 already' },
    ]);
    expect(res.body.updated).toBe(1);
    expect((await PartModel.findById(id).lean())?.text).toBe('Changed.');
    const changed = await catalogue();
    changed.set(id, before.get(id));
    expect(changed).toEqual(before);
  });
});

describe('restock', () => {
  it('adds pieces through the restock, with the stock invariant exact, once however often the file is applied', async () => {
    const id = await insertPart({ name: named('Restockable'), minOrderQty: 10, availableQty: 100 });
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: id, qty: 30 },
    });
    expect(order.status).toBe(201);
    const name = (await PartModel.findById(id).lean())?.name ?? '';
    const file = csv(
      `_id,${HEADER},restock`,
      `${id},${name},A part used by the tests.,/images/parts/test.svg,12.50,10,70,parts,25`,
    );
    expect((await importCsv(file, { dryRun: true })).body).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
      errors: [],
    });
    expect((await PartModel.findById(id).lean())?.availableQty).toBe(70);

    expect((await importCsv(file)).body).toEqual({ created: 0, updated: 1, unchanged: 0, errors: [] });
    const received = new Map([[id, 100 + 25]]);
    expect(invariantProblems(await readStock(t.env.MONGODB_URI), received)).toEqual([]);
    expect((await PartModel.findById(id).lean())?.availableQty).toBe(95);

    // The file says the stock was 70 when the 25 were counted: applied again it restocks nothing.
    const again = await importCsv(file);
    expect(again.body).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [
        {
          row: 2,
          field: 'availableQty',
          message: 'is 95 now, not 70: the stock changes only through restock and orders',
        },
      ],
    });
    expect(invariantProblems(await readStock(t.env.MONGODB_URI), received)).toEqual([]);
  });

  it('needs the stock it was counted against, a whole positive number, and an existing part', async () => {
    const id = await insertPart({ name: named('Needs stock'), availableQty: 5 });
    const name = (await PartModel.findById(id).lean())?.name ?? '';
    const res = await importCsv(
      csv(
        `_id,${HEADER},restock`,
        `${id},${name},A part used by the tests.,/images/parts/test.svg,12.50,100,,parts,3`,
        `,${named('New')},T.,/images/parts/x.svg,5.00,1,10,parts,3`,
      ),
    );
    expect(res.body.errors).toEqual([
      {
        row: 2,
        field: 'availableQty',
        message: 'is required with restock: the stock the restock was counted against',
      },
      { row: 3, field: 'restock', message: 'is for existing parts (with an _id); set availableQty instead' },
    ]);
    const zero = await importCsv(
      csv(
        `_id,${HEADER},restock`,
        `${id},${name},A part used by the tests.,/images/parts/test.svg,12.50,100,5,parts,0`,
      ),
    );
    expect(zero.body.errors).toEqual([
      { row: 2, field: 'restock', message: expect.stringMatching(/>=1|at least|too small/i) },
    ]);
    expect((await PartModel.findById(id).lean())?.availableQty).toBe(5);
  });
});

describe('price tiers', () => {
  it('reads 500:5.00;1000:4.00, applies the tier rules of PUT /parts/:id, and an empty cell removes them', async () => {
    const [good, bad, garbled] = [named('Tiered'), named('Badly tiered'), named('Garbled')];
    const header = `${HEADER},priceTiers`;
    const res = await importCsv(
      csv(
        header,
        `${good},T.,/images/parts/x.svg,6.00,100,1000,parts,500:5.00;1000:4.00`,
        `${bad},T.,/images/parts/x.svg,6.00,100,1000,parts,50:5.00;1000:7.00`,
        `${garbled},T.,/images/parts/x.svg,6.00,100,1000,parts,500-5`,
      ),
    );
    expect(res.body.created).toBe(1);
    expect(res.body.errors).toEqual([
      { row: 3, field: 'priceTiers.0.fromQty', message: 'must be above the minimum order quantity (100)' },
      { row: 3, field: 'priceTiers.1.price', message: "must be below the previous tier's price" },
      {
        row: 4,
        field: 'priceTiers',
        message: 'must be fromQty:price pairs separated by ";" (like 500:5.00;1000:4.00)',
      },
    ]);
    const stored = await byName(good);
    expect(stored?.priceTiers).toEqual([
      { fromQty: 500, priceCents: 500 },
      { fromQty: 1000, priceCents: 400 },
    ]);
    const { rows } = await exportFile();
    const row = rows.find((r) => r.name === good);
    expect(row?.priceTiers).toBe('500:5.00;1000:4.00');

    const id = String(stored?._id);
    const cleared = await importCsv(
      csv(`_id,${header}`, `${id},${good},T.,/images/parts/x.svg,6.00,100,1000,parts,`),
    );
    expect(cleared.body).toEqual({ created: 0, updated: 1, unchanged: 0, errors: [] });
    expect((await PartModel.findById(id).lean())?.priceTiers ?? undefined).toBeUndefined();
  });
});

describe('formula cells', () => {
  it("exports cells a spreadsheet would run with a leading ', and reads them back without it", async () => {
    const formula = `=HYPERLINK("http://evil.example","${named('Click')}")`;
    const res = await importCsv(
      csv(
        HEADER,
        // As the export writes them: the ' is taken off on the way in.
        `"'${formula.replace(/"/g, '""')}",'-15% off,/images/parts/x.svg,5.00,1,10,parts`,
        `"'70s fairing ${named('x')}",'@home,/images/parts/x.svg,5.00,1,10,parts`,
      ),
    );
    expect(res.body.errors).toEqual([]);
    const part = await byName(formula);
    expect(part?.text).toBe('-15% off');
    const plain = await PartModel.findOne({ name: /^'70s fairing/ }).lean();
    // Only a ' before a formula's first character is the export's: this one is the name's own.
    expect(plain?.text).toBe('@home');

    const { text, rows } = await exportFile();
    expect(text).toContain(`"'${formula.replace(/"/g, '""')}"`);
    const row = rows.find((r) => r._id === String(part?._id));
    expect(row).toMatchObject({ name: `'${formula}`, text: "'-15% off" });
    expect(rows.find((r) => r._id === String(plain?._id))).toMatchObject({ text: "'@home" });
  });
});

describe('round trip', () => {
  it('an exported catalogue imported as it is changes nothing: every row unchanged', async () => {
    const { text, rows } = await exportFile();
    expect(rows.length).toBe(await PartModel.countDocuments());
    const before = await catalogue();
    const res = await importCsv(text, { dryRun: true });
    expect(res.body).toEqual({ created: 0, updated: 0, unchanged: rows.length, errors: [] });
    const applied = await importCsv(text);
    expect(applied.body).toEqual({ created: 0, updated: 0, unchanged: rows.length, errors: [] });
    expect(await catalogue()).toEqual(before);
  });
});

describe('bad files', () => {
  it('415 for another content type, 400 for other encodings, missing columns, no header; nothing written', async () => {
    const name = named('Bad input');
    const before = await catalogue();
    const good = csv(HEADER, `${name},T.,/images/parts/x.svg,5.00,1,10,parts`);

    const json = await importCsv(good, { type: 'application/json' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const latin1 = await importCsv(
      Buffer.from(csv(HEADER, `Caf\u00e9 ${name},T.,/images/parts/x.svg,5.00,1,10,parts`), 'latin1'),
    );
    expect(latin1.status).toBe(400);
    expect(latin1.body.error.message).toBe(
      'The file is not UTF-8 text. Save it as "CSV UTF-8" and try again.',
    );

    const missing = await importCsv(csv('name,text,img,price', `${name},T.,/images/parts/x.svg,5.00`));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('missing columns: qty, availableQty, category');

    const unknown = await importCsv(
      csv(`${HEADER},prize`, `${name},T.,/images/parts/x.svg,5.00,1,10,parts,1`),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('unknown columns: prize');

    expect((await importCsv('')).status).toBe(400);
    const unclosed = await importCsv(csv(HEADER, `"${name},T.,/images/parts/x.svg,5.00,1,10,parts`));
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.error.message).toMatch(/^The file is not valid CSV/);

    // A UTF-8 byte-order mark (Excel's "CSV UTF-8") is not part of the first column's name.
    const bom = await importCsv(`\ufeff${good}`, { dryRun: true });
    expect(bom.body).toEqual({ created: 1, updated: 0, unchanged: 0, errors: [] });
    expect(await catalogue()).toEqual(before);
  });

  it('413 past 5 MB (declared or streamed) and past 20,000 rows; 20,000 rows are read', async () => {
    const before = await catalogue();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    const declared = await importCsv(big, { dryRun: true });
    expect(declared.status).toBe(413);

    // Chunked: no length to refuse up front, cut off at the limit while it streams.
    const chunks = (async function* () {
      yield Buffer.from(`${HEADER}\r\n`);
      for (let i = 0; i < 6; i++) yield Buffer.alloc(1024 * 1024, 'b');
    })();
    const streamed = await fetch(`${t.base}/import/parts?dryRun=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/csv' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);

    const line = (i: number) => `Row part ${i},T.,/images/parts/x.svg,5.00,1,1,parts`;
    const rows = (n: number) => csv(HEADER, ...Array.from({ length: n }, (_, i) => line(i)));
    const tooMany = await importCsv(rows(20_001), { dryRun: true });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.message).toBe('The file has more than 20000 rows.');
    const most = await importCsv(rows(20_000), { dryRun: true });
    expect(most.status).toBe(200);
    expect(most.body).toMatchObject({ created: 20_000, errors: [] });
    expect(await catalogue()).toEqual(before);
  });
});
