import {
  Children,
  cloneElement,
  isValidElement,
  type ComponentProps,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Pager } from './pager';
import { LoadError, Loading } from './status';

/** The few fields of an RTK Query hook result the table needs, so any list endpoint fits. */
interface ListQuery {
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

interface QueryTableProps<Row> {
  query: ListQuery;
  /**
   * The rows to show, undefined while there are none for the current arguments. The caller picks
   * them (currentData on paged lists, so a page change shows "Loading" rather than the old page).
   */
  rows: readonly Row[] | undefined;
  /** Noun for the status lines: "Loading {what}..." and "Could not load {errorWhat}." */
  what: string;
  /** Defaults to "the {what}", which reads right for the admin lists; "your orders" needs no "the". */
  errorWhat?: string;
  /**
   * Shown instead of an empty table; leave it out to keep the (header-only) table, or give null
   * to show nothing (the page shows its rows elsewhere, as My Order its checkouts).
   */
  empty?: ReactNode;
  /** Names the scrollable region, so keyboard and screen-reader users can find and scroll it. */
  label: string;
  columns: readonly string[];
  /** Returns the whole <tr> (with its key), so each page keeps its own row attributes and cells. */
  renderRow: (row: Row, index: number) => ReactNode;
  /** Paged lists only; the pager sits under the table and hides itself on a single page. */
  pager?: ComponentProps<typeof Pager>;
}

type CellProps = { 'data-label'?: string; children?: ReactNode };

/**
 * Gives each cell of a row its column's name as `data-label`: on a phone the table is shown as
 * stacked cards (dashboard.css), one per row, where each value carries its own label.
 */
function labelCells(row: ReactNode, columns: readonly string[]): ReactNode {
  if (!isValidElement<CellProps>(row)) return row;
  const cells = Children.toArray(row.props.children).map((cell, i) =>
    isValidElement<CellProps>(cell) && columns[i] !== undefined
      ? cloneElement(cell as ReactElement<CellProps>, { 'data-label': columns[i] })
      : cell,
  );
  return cloneElement(row, {}, ...cells);
}

/**
 * The states every dashboard list goes through (loading, failure with retry, empty, table with
 * pager) in one place, so the lists keep the same texts, roles and keyboard-scrollable region.
 */
export function QueryTable<Row>({
  query,
  rows,
  what,
  errorWhat = `the ${what}`,
  empty,
  label,
  columns,
  renderRow,
  pager,
}: QueryTableProps<Row>) {
  const showEmpty = rows !== undefined && rows.length === 0 && empty !== undefined;
  return (
    <>
      {!rows && query.isFetching && <Loading what={what} />}
      {query.isError && (
        <LoadError error={query.error} what={errorWhat} onRetry={() => void query.refetch()} />
      )}
      {showEmpty && empty !== null && <p className="card">{empty}</p>}
      {rows && !showEmpty && (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
            <table className="table">
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>{rows.map((row, i) => labelCells(renderRow(row, i), columns))}</tbody>
            </table>
          </div>
          {pager && <Pager {...pager} />}
        </>
      )}
    </>
  );
}
