import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';

/**
 * CSV files the admins open in a spreadsheet. A cell starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is run as a formula by Excel, LibreOffice and Google Sheets (CSV injection), so
 * such a cell is written with a leading `'`, which the spreadsheet shows as text, and an import
 * takes that `'` off again: a file exported and imported unchanged is read as it was written.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Whether a cell read from a file starts with the `'` that `safeCell` adds. */
const escaped = (value: string) => value.startsWith("'") && FORMULA_START.test(value.slice(1));

/**
 * A cell as written to a file an admin opens: formulas made text. A value that itself starts with
 * `'` and a formula character gets one more, so `readCell` gives it back as it was.
 */
export const safeCell = (value: string): string =>
  FORMULA_START.test(value) || escaped(value) ? `'${value}` : value;

/** A cell as read from an imported file: the `'` that `safeCell` added is taken off. */
export const readCell = (value: string): string => (escaped(value) ? value.slice(1) : value);

/**
 * Answers with a CSV download made row by row from `rows` (a database cursor or a list already in
 * memory): csv-stringify quotes each cell as needed, and the answer streams, so the whole file is
 * never one string in memory.
 */
export function sendCsv(
  ctx: Context,
  filename: string,
  header: readonly string[],
  rows: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
): void {
  const source = Readable.from(
    (async function* () {
      yield header.map(safeCell);
      for await (const row of rows) yield row.map(safeCell);
    })(),
  );
  const csv = stringify({ record_delimiter: '\r\n' });
  source.on('error', (err) => csv.destroy(err));
  ctx.set('Content-Type', 'text/csv; charset=utf-8');
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = source.pipe(csv);
}
