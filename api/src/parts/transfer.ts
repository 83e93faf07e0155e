import { parse } from 'csv-parse';
import { z } from 'zod';
import {
  objectIdSchema,
  partEditSchema,
  partInputSchema,
  stockChangeSchema,
  type Part,
  type PartEdit,
  type PartInput,
  type PartImportReport,
  type PriceTier,
} from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { readCell } from '../lib/csv';
import { toCents } from '../lib/money';
import { ON_SALE, PartModel, partWrites, type PartDoc } from './model';
import * as parts from './service';

/*
 * The catalogue as a CSV file, out (GET /export/parts.csv) and in (POST /import/parts). Every
 * rule a row must keep is the API's own: the contract schemas of POST /parts and PUT /parts/:id
 * (with their messages), the edit and the restock of parts/service.ts. What this module adds is
 * what only a file has: columns, cells, row numbers, names already taken, and the stock a row was
 * counted against.
 */

/** The columns of an exported file, in order; an import needs `REQUIRED` and may carry the rest. */
export const PART_COLUMNS = [
  '_id',
  'name',
  'text',
  'img',
  'price',
  'qty',
  'availableQty',
  'category',
  'priceTiers',
  'restock',
] as const;
type Column = (typeof PART_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['name', 'text', 'img', 'price', 'qty', 'availableQty', 'category'];

/** At most this many rows below the header. */
export const MAX_IMPORT_ROWS = 20_000;
/** At most this many bytes. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export type ImportReport = PartImportReport;
export type RowError = PartImportReport['errors'][number];

/** `500:5.00;1000:4.00`: each tier `fromQty:price`, in the order stored. */
export const formatTiers = (tiers: readonly PriceTier[] | undefined): string =>
  (tiers ?? []).map((t) => `${t.fromQty}:${t.price.toFixed(2)}`).join(';');

/** A part as one row of the exported file, in PART_COLUMNS order (`restock` left empty). */
export function partRow(part: Part): string[] {
  return [
    part._id,
    part.name,
    part.text,
    part.img,
    part.price.toFixed(2),
    String(part.qty),
    String(part.availableQty),
    part.category,
    formatTiers(part.priceTiers),
    '',
  ];
}

/** Every part on sale (not archived), oldest first, one at a time from a database cursor. */
export async function* exportRows(): AsyncGenerator<string[]> {
  for await (const doc of PartModel.find(ON_SALE)
    .sort({ _id: 1 })
    .lean<PartDoc>()
    .cursor({ batchSize: 500 })) {
    yield partRow(parts.toPart(doc as PartDoc));
  }
}

const NUMBER = /^\d+(?:\.\d+)?$/;
const TIERS_MESSAGE = 'must be fromQty:price pairs separated by ";" (like 500:5.00;1000:4.00)';

/** A file's cells for one row, by column; undefined for a column the file does not have. */
type Cells = Partial<Record<Column, string>>;

/** One problem of a row, before it is numbered. */
type Problem = Omit<RowError, 'row'>;

/** A number cell: undefined when empty, a problem when not a plain decimal number. */
function numberCell(cells: Cells, column: Column, problems: Problem[]): number | undefined {
  const cell = cells[column]?.trim() ?? '';
  if (cell === '') return undefined;
  if (!NUMBER.test(cell)) {
    problems.push({ field: column, message: 'must be a number' });
    return undefined;
  }
  return Number(cell);
}

/** The tiers cell: undefined when the file has no such column, [] when the cell is empty. */
function tiersCell(cells: Cells, problems: Problem[]): PriceTier[] | undefined {
  const cell = cells.priceTiers?.trim();
  if (cell === undefined) return undefined;
  const tiers: PriceTier[] = [];
  for (const pair of cell.split(';')) {
    if (pair.trim() === '') continue;
    const [fromQty, price, extra] = pair.split(':').map((s) => s.trim());
    if (extra !== undefined || !fromQty || !price || !/^\d+$/.test(fromQty) || !NUMBER.test(price)) {
      problems.push({ field: 'priceTiers', message: TIERS_MESSAGE });
      return undefined;
    }
    tiers.push({ fromQty: Number(fromQty), price: Number(price) });
  }
  return tiers;
}

/** A schema's problems with the row, named as the API's 400 names them (`priceTiers.0.price`). */
function schemaProblems(error: z.ZodError, already: Problem[]): Problem[] {
  const taken = new Set(already.map((p) => p.field));
  return error.issues
    .map((i) => ({ field: i.path.map(String).join('.') || 'row', message: i.message }))
    .filter((p) => !taken.has(p.field.split('.')[0] ?? p.field));
}

const nameKey = (name: string) => name.trim().toLowerCase();

/** What one valid row will do. */
type Plan =
  | { kind: 'create'; input: PartInput }
  | { kind: 'update'; id: string; edit: PartEdit | null; restock?: { quantity: number; from: number } }
  | { kind: 'unchanged' };

/** Whether an edit would leave the stored part as it is. */
function sameAs(part: Part, edit: PartEdit): boolean {
  const tiersSame =
    edit.priceTiers === undefined ||
    (edit.priceTiers.length === (part.priceTiers?.length ?? 0) &&
      edit.priceTiers.every((t, i) => {
        const stored = part.priceTiers?.[i];
        return stored?.fromQty === t.fromQty && toCents(stored.price) === toCents(t.price);
      }));
  return (
    part.name === edit.name &&
    part.text === edit.text &&
    part.img === edit.img &&
    toCents(part.price) === toCents(edit.price) &&
    part.qty === edit.qty &&
    (edit.category === undefined || part.category === edit.category) &&
    tiersSame
  );
}

/**
 * Reads an uploaded file: the header and then each row with its spreadsheet number. A file with
 * more than MAX_IMPORT_ROWS rows is refused as soon as the parser reaches the row past it, so a
 * file of millions of tiny lines never becomes millions of records in memory.
 */
async function readFile(
  text: string,
): Promise<{ header: string[]; rows: { row: number; cells: string[] }[] }> {
  const parser = parse(text, { bom: true, relax_column_count: true, max_record_size: 64 * 1024 });
  let header: string[] | undefined;
  const rows: { row: number; cells: string[] }[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (!header) {
        header = record.map((h) => h.trim());
        continue;
      }
      // A blank line is a row a spreadsheet shows empty: counted, not read.
      if (record.every((c) => c.trim() === '')) continue;
      if (row - 1 > MAX_IMPORT_ROWS) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The file has more than ${MAX_IMPORT_ROWS} rows.`);
      }
      rows.push({ row, cells: record });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const at = (err as { lines?: number }).lines;
    throw AppError.badRequest(
      `The file is not valid CSV${at ? ` (line ${at})` : ''}: ${(err as Error).message}`,
    );
  } finally {
    parser.destroy();
  }
  if (!header) throw AppError.badRequest('The file is empty: it needs a header row naming the columns.');
  return { header, rows };
}

/** The header's columns by position; a missing, unknown or repeated column is the whole file's 400. */
function columnsOf(header: string[]): Column[] {
  const known = new Set<string>(PART_COLUMNS);
  const unknown = header.filter((h) => !known.has(h));
  const missing = REQUIRED.filter((c) => !header.includes(c));
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  const problems = [
    ...(missing.length ? [`missing columns: ${missing.join(', ')}`] : []),
    ...(unknown.length ? [`unknown columns: ${unknown.map((c) => c || '(empty)').join(', ')}`] : []),
    ...(repeated.length ? [`repeated columns: ${[...new Set(repeated)].join(', ')}`] : []),
  ];
  if (problems.length) {
    throw AppError.badRequest(
      `The header row does not fit: ${problems.join('; ')}. The columns are ${PART_COLUMNS.join(',')} (_id, priceTiers and restock may be left out).`,
      { missing, unknown, repeated, columns: PART_COLUMNS },
    );
  }
  return header as Column[];
}

/**
 * POST /import/parts: checks every row, and (unless `dryRun`) writes the valid ones through the
 * parts service, one at a time: creates with `createPart`, edits with `editPart`, stock with
 * `restock` (the stock journal's own path, conditional on the stock the row states). A row with
 * any problem is not written; the others are. Only one import runs at a time in this process.
 */
export async function importParts(text: string, { dryRun }: { dryRun: boolean }): Promise<ImportReport> {
  if (running) throw AppError.conflict('Another import is running. Try again when it has finished.');
  running = true;
  try {
    return await runImport(text, dryRun);
  } finally {
    running = false;
  }
}
let running = false;

async function runImport(text: string, dryRun: boolean): Promise<ImportReport> {
  const { header, rows } = await readFile(text);
  const columns = columnsOf(header);
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, errors: [] };

  // Every name in the catalogue (its owner's id), and the parts the file updates: archived parts
  // are out of the catalogue, so their names are free and their ids unknown here.
  const names = new Map<string, string>();
  for await (const doc of PartModel.find(ON_SALE, { name: 1 }).lean<Pick<PartDoc, '_id' | 'name'>>().cursor({
    batchSize: 1000,
  })) {
    names.set(nameKey(doc.name), String(doc._id));
  }
  const idAt = columns.indexOf('_id');
  const ids = [
    ...new Set(
      rows
        .map((r) =>
          readCell(r.cells[idAt] ?? '')
            .trim()
            .toLowerCase(),
        )
        .filter((id) => idAt >= 0 && objectIdSchema.safeParse(id).success),
    ),
  ];
  const stored = new Map<string, Part>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const doc of await PartModel.find({ _id: { $in: ids.slice(i, i + 500) }, ...ON_SALE }).lean<
      PartDoc[]
    >()) {
      stored.set(String(doc._id), parts.toPart(doc));
    }
  }
  /** Which row first updated each part: a part is updated by one row of a file. */
  const updatedBy = new Map<string, number>();

  // The catalogue hears of the import's creates and edits once, at the end (before the answer):
  // a shopper's read between two rows would otherwise load the whole catalogue again.
  await partWrites.batch(async () => {
    for (const { row, cells: raw } of rows) {
      const problems: Problem[] = [];
      if (raw.length !== columns.length) {
        report.errors.push({
          row,
          field: 'row',
          message: `has ${raw.length} cells; the header has ${columns.length}`,
        });
        continue;
      }
      const cells: Cells = {};
      columns.forEach((c, i) => (cells[c] = readCell(raw[i] ?? '')));
      const plan = planRow(cells, problems, { names, stored, updatedBy, row });
      if (problems.length) {
        report.errors.push(...problems.map((p) => ({ row, ...p })));
        continue;
      }
      if (!plan || plan.kind === 'unchanged') {
        report.unchanged++;
        continue;
      }
      if (dryRun) {
        report[plan.kind === 'create' ? 'created' : 'updated']++;
        continue;
      }
      try {
        await applyRow(plan, stored);
        report[plan.kind === 'create' ? 'created' : 'updated']++;
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        const field =
          plan.kind === 'update' && err.code === 'CONFLICT' && plan.restock ? 'availableQty' : 'row';
        report.errors.push({ row, field, message: err.message });
      }
    }
  });
  return report;
}

interface Seen {
  names: Map<string, string>;
  stored: Map<string, Part>;
  updatedBy: Map<string, number>;
  row: number;
}

/** What a row will do, with its problems added to `problems` (then it does nothing). */
function planRow(cells: Cells, problems: Problem[], seen: Seen): Plan | undefined {
  const id = cells._id?.trim().toLowerCase() ?? '';
  const price = numberCell(cells, 'price', problems);
  const qty = numberCell(cells, 'qty', problems);
  const availableQty = numberCell(cells, 'availableQty', problems);
  const restockCell = numberCell(cells, 'restock', problems);
  const priceTiers = tiersCell(cells, problems);
  for (const [field, value] of [
    ['price', price],
    ['qty', qty],
  ] as const) {
    if (value === undefined && !problems.some((p) => p.field === field)) {
      problems.push({ field, message: 'is required' });
    }
  }
  const category = cells.category?.trim() || undefined;
  const fields = {
    name: cells.name ?? '',
    text: cells.text ?? '',
    img: cells.img ?? '',
    price,
    qty,
    category,
  };
  const claimName = (owner: string) => {
    const key = nameKey(fields.name);
    const holder = seen.names.get(key);
    if (holder !== undefined && holder !== owner) {
      problems.push({
        field: 'name',
        message: holder.startsWith('row ')
          ? `is the same as the name in ${holder}`
          : 'a part with this name already exists',
      });
    }
    return key;
  };

  if (id === '') {
    if (restockCell !== undefined) {
      problems.push({
        field: 'restock',
        message: 'is for existing parts (with an _id); set availableQty instead',
      });
    }
    if (availableQty === undefined && !problems.some((p) => p.field === 'availableQty')) {
      problems.push({ field: 'availableQty', message: 'is required for a new part' });
    }
    const parsed = partInputSchema.safeParse({
      ...fields,
      availableQty,
      ...(priceTiers?.length ? { priceTiers } : {}),
    });
    if (!parsed.success) problems.push(...schemaProblems(parsed.error, problems));
    const key = claimName(`row ${seen.row}`);
    if (problems.length || !parsed.success) return undefined;
    seen.names.set(key, `row ${seen.row}`);
    return { kind: 'create', input: parsed.data };
  }

  if (!objectIdSchema.safeParse(id).success) {
    problems.push({
      field: '_id',
      message: 'must be a part id (24 hexadecimal digits), or empty for a new part',
    });
    return undefined;
  }
  const part = seen.stored.get(id);
  if (!part) {
    problems.push({ field: '_id', message: 'no part has this id' });
    return undefined;
  }
  const earlier = seen.updatedBy.get(id);
  if (earlier !== undefined) {
    problems.push({ field: '_id', message: `is updated in row ${earlier} already` });
    return undefined;
  }
  const parsed = partEditSchema.safeParse({ ...fields, ...(priceTiers ? { priceTiers } : {}) });
  if (!parsed.success) problems.push(...schemaProblems(parsed.error, problems));
  let restock: { quantity: number; from: number } | undefined;
  if (restockCell !== undefined) {
    const quantity = stockChangeSchema.shape.quantity.safeParse(restockCell);
    if (!quantity.success) problems.push(...schemaProblems(prefixed(quantity.error, 'restock'), problems));
    if (availableQty === undefined) {
      problems.push({
        field: 'availableQty',
        message: 'is required with restock: the stock the restock was counted against',
      });
    } else if (quantity.success) restock = { quantity: quantity.data, from: availableQty };
  }
  if (availableQty !== undefined && availableQty !== part.availableQty) {
    problems.push({
      field: 'availableQty',
      message: parts.stockMovedMessage(part.availableQty, availableQty),
    });
  }
  const oldKey = nameKey(part.name);
  const key = claimName(id);
  if (problems.length || !parsed.success) return undefined;
  seen.updatedBy.set(id, seen.row);
  if (key !== oldKey) {
    if (seen.names.get(oldKey) === id) seen.names.delete(oldKey);
    seen.names.set(key, id);
  }
  const edit = sameAs(part, parsed.data) ? null : parsed.data;
  if (!edit && !restock) return { kind: 'unchanged' };
  return { kind: 'update', id, edit, ...(restock ? { restock } : {}) };
}

/** A lone field's ZodError, as issues on that field. */
function prefixed(error: z.ZodError, field: string): z.ZodError {
  return new z.ZodError(error.issues.map((i) => ({ ...i, path: [field, ...i.path] })));
}

/** Writes one planned row through the parts service. */
async function applyRow(
  plan: Exclude<Plan, { kind: 'unchanged' }>,
  stored: Map<string, Part>,
): Promise<void> {
  if (plan.kind === 'create') {
    await parts.createPart(plan.input);
    return;
  }
  // The conditional restock first: if the stock moved since the file was made, nothing is written.
  if (plan.restock) await parts.restock(plan.id, plan.restock.quantity, { from: plan.restock.from });
  if (plan.edit) stored.set(plan.id, await parts.editPart(plan.id, plan.edit));
}
