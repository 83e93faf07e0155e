import { z } from 'zod';
import { partImportReportSchema } from '@motoparts/contracts';
import { adminOnly } from '../http/auth';
import { csvBody } from '../http/csv-body';
import type { ApiRoutes } from '../http/openapi';
import { validate, type Input } from '../http/validate';
import { sendCsv } from '../lib/csv';
import type { RouteDeps } from '../route-deps';
import { exportRows, importParts, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, PART_COLUMNS } from './transfer';

/** The path of the import: its body is read by the route (after the admin check), not the JSON parser. */
export const IMPORT_PATH = '/import/parts';

const importQuerySchema = z.object({
  /** Only `true` or `false`, as `inStock` of GET /parts. */
  dryRun: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false)
    .meta({ description: '`true`: check every row and say what would happen, changing nothing.' }),
});

const importReportSchema = partImportReportSchema.meta({ id: 'ImportReport' });

/** Parts in and out as CSV files (parts/transfer.ts). */
export function partTransferRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const admin = adminOnly(deps);
  const section = routes.section('parts');

  section.post<{ input: Input<{ query: typeof importQuerySchema }>; csvText: string }>(
    IMPORT_PATH,
    {
      operationId: 'importParts',
      summary: 'Add and update parts from a CSV file',
      description:
        `Columns \`${PART_COLUMNS.join(',')}\`; \`_id\`, \`priceTiers\` (\`500:5.00;1000:4.00\`) and \`restock\` may be ` +
        'left out. A row with an `_id` updates that part, one without creates a part. Each row keeps the rules of ' +
        'POST /parts and PUT /parts/:id; a name another part (or an earlier row) has is a row error; `availableQty` ' +
        "sets a new part's stock and must equal an existing part's stock, to which `restock` adds pieces (only while " +
        'the stock is still that number, so the same file applied twice restocks once). Rows with errors are not ' +
        `written; the others are. At most ${MAX_IMPORT_ROWS} rows and ${MAX_IMPORT_BYTES / 1024 / 1024} MB of UTF-8. ` +
        "A cell written as `'=…` (a formula made text on export) is read without its `'`.",
      rawBody: { mediaType: 'text/csv', description: 'The file, UTF-8, with a header row.' },
      ok: {
        description: 'What was (or, with `dryRun`, would be) done, and each row error.',
        body: importReportSchema,
      },
      errors: [409],
    },
    admin,
    validate({ query: importQuerySchema }),
    csvBody(MAX_IMPORT_BYTES),
    async (ctx) => {
      ctx.body = await importParts(ctx.state.csvText, { dryRun: ctx.state.input.query.dryRun });
    },
  );

  section.get(
    '/export/parts.csv',
    {
      operationId: 'exportParts',
      summary: 'Every part as a CSV file',
      description:
        `The columns POST /import/parts reads (\`${PART_COLUMNS.join(',')}\`, \`restock\` empty), oldest part first, ` +
        "streamed. A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a leading `'`.",
      ok: { description: 'The file.', mediaType: 'text/csv' },
    },
    admin,
    (ctx) => {
      sendCsv(ctx, 'parts.csv', PART_COLUMNS, exportRows());
    },
  );
}
