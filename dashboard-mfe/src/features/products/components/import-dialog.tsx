import { useId, useState, type ChangeEvent } from 'react';
import { toast } from 'react-toastify';
import type { PartImportReport } from '@motoparts/contracts';
import { Dialog, errorMessage, formatCount } from '@motoparts/state';
import { useImportPartsMutation } from '../api';

/** "3 products", "1 product". */
const products = (n: number) => `${formatCount(n)} ${n === 1 ? 'product' : 'products'}`;

/** What a report says, in one sentence: what would happen (dry run) or what happened. */
function summary(report: PartImportReport, applied: boolean): string {
  const bad = new Set(report.errors.map((e) => e.row)).size;
  const skipped =
    bad === 0
      ? ''
      : bad === 1
        ? ` 1 row has errors and ${applied ? 'was' : 'will be'} skipped.`
        : ` ${formatCount(bad)} rows have errors and ${applied ? 'were' : 'will be'} skipped.`;
  return applied
    ? `Created ${products(report.created)}, updated ${products(report.updated)}; ${products(report.unchanged)} unchanged.${skipped}`
    : `Ready to create ${products(report.created)} and update ${products(report.updated)}; ${products(report.unchanged)} unchanged.${skipped}`;
}

/**
 * Manage Products → Import: choose a CSV file; the API checks it (a dry run, nothing written) and
 * the dialog shows what it would do and every row's problem (row as a spreadsheet numbers it,
 * field, message); Apply writes the valid rows and shows the result.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const [importParts, importing] = useImportPartsMutation();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<PartImportReport | null>(null);
  const [applied, setApplied] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const inputId = useId();
  const busy = importing.isLoading;

  async function check(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    setReport(null);
    setApplied(false);
    setFailure(null);
    if (!chosen) return;
    try {
      setReport(await importParts({ file: chosen, dryRun: true }).unwrap());
    } catch (err) {
      setFailure(errorMessage(err, 'The file could not be checked. Please try again.'));
    }
  }

  async function apply() {
    if (!file) return;
    setFailure(null);
    try {
      const result = await importParts({ file, dryRun: false }).unwrap();
      setReport(result);
      setApplied(true);
      toast.success(`Import done: ${products(result.created)} created, ${products(result.updated)} updated`);
    } catch (err) {
      setFailure(errorMessage(err, 'The file could not be imported. Please try again.'));
    }
  }

  const canApply = !!report && !applied && report.created + report.updated > 0;
  return (
    <Dialog
      title="Import products"
      onClose={onClose}
      busy={busy}
      className="dash-import"
      actions={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={busy}>
            {applied ? 'Close' : 'Cancel'}
          </button>
          {!applied && (
            <button type="button" className="btn" onClick={() => void apply()} disabled={busy || !canApply}>
              {busy && report ? 'Importing...' : 'Apply'}
            </button>
          )}
        </>
      }
    >
      <p className="dash-muted">
        A CSV file (UTF-8) with the columns name, text, img, price, qty, availableQty and category; _id
        updates that product, priceTiers (500:5.00;1000:4.00) and restock are optional. Export gives a file in
        this form. Nothing is written until you press Apply.
      </p>
      {!applied && (
        <div className="form-field">
          <label htmlFor={inputId}>CSV file</label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void check(e)}
            disabled={busy}
          />
        </div>
      )}
      {busy && !report && (
        <p className="dash-status" role="status">
          Checking the file...
        </p>
      )}
      {failure && (
        <div className="dash-alert" role="alert">
          <p>{failure}</p>
        </div>
      )}
      {report && (
        <div role="status">
          <p data-testid="import-summary">{summary(report, applied)}</p>
        </div>
      )}
      {report && report.errors.length > 0 && (
        <div className="table-wrap" role="region" aria-label="Rows with errors" tabIndex={0}>
          <table className="table dash-import-errors">
            <caption>Rows with errors</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Field</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {report.errors.map((e, i) => (
                <tr key={`${e.row}-${e.field}-${i}`}>
                  <th scope="row">{e.row}</th>
                  <td>{e.field}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}
