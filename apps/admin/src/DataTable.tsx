import { type Language, plainDecimal } from '@swx/contract';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useBackOffice } from './context.ts';
import { fill, formatTime } from './text.ts';

export type Column<T> = {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Sortable by this value (the loaded rows, in the browser). */
  sortValue?: (row: T) => string | number;
  /** The header is for screen readers only (an actions column). */
  hiddenHeader?: boolean;
};

/** A column of times (ISO), shown in the staff member's language and sorted by time. */
export function timeColumn<T>(
  key: string,
  header: string,
  language: Language,
  time: (row: T) => string,
): Column<T> {
  return { key, header, cell: (row) => formatTime(language, time(row)), sortValue: time };
}

/**
 * The back office's one data table: a caption, sortable columns (header buttons, aria-sort), a
 * filter over the rows shown, keyset paging ("Load more" asks the server for the page after the
 * last row), and the loading, empty and error states. Everything is reachable by keyboard.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  failure,
  onRetry,
  empty,
  filterText,
  hasMore = false,
  loadingMore = false,
  onMore,
  testId,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading: boolean;
  failure: string;
  onRetry?: () => void;
  empty: string;
  /** The text a row is filtered by; without it the table has no filter. */
  filterText?: (row: T) => string;
  hasMore?: boolean;
  loadingMore?: boolean;
  onMore?: () => void;
  testId?: string;
}) {
  const { text } = useBackOffice();
  const [sort, setSort] = useState<{ key: string; descending: boolean } | null>(null);
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const shown = useMemo(() => {
    let list = rows ?? [];
    const needle = filter.trim().toLowerCase();
    if (needle && filterText) list = list.filter((row) => filterText(row).toLowerCase().includes(needle));
    const column = sort ? columns.find((c) => c.key === sort.key) : undefined;
    if (sort && column?.sortValue) {
      const value = column.sortValue;
      list = [...list].sort((a, b) => {
        const x = value(a);
        const y = value(b);
        const order =
          typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return sort.descending ? -order : order;
      });
    }
    return list;
  }, [rows, filter, filterText, sort, columns]);

  if (failure)
    return (
      <div className="table-state">
        <p className="alert" role="alert">
          {failure}
        </p>
        {onRetry ? (
          <button type="button" onClick={onRetry}>
            {text.table.retry}
          </button>
        ) : null}
      </div>
    );
  if (loading || !rows)
    return (
      <p role="status" className="muted">
        {text.loading}
      </p>
    );
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="data-table" data-testid={testId}>
      {filterText ? (
        <div className="table-tools">
          <label htmlFor={filterId}>{text.table.filter}</label>
          <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          <span className="muted" aria-live="polite">
            {fill(text.table.shown, { count: shown.length, total: rows.length })}
          </span>
        </div>
      ) : null}
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => {
                const active = sort?.key === c.key;
                return (
                  <th
                    key={c.key}
                    scope="col"
                    aria-sort={active ? (sort?.descending ? 'descending' : 'ascending') : undefined}
                  >
                    {c.hiddenHeader ? (
                      <span className="visually-hidden">{c.header}</span>
                    ) : c.sortValue ? (
                      <button
                        type="button"
                        className="sort"
                        onClick={() =>
                          setSort(
                            active && !sort?.descending
                              ? { key: c.key, descending: true }
                              : { key: c.key, descending: false },
                          )
                        }
                        aria-label={fill(text.table.sortBy, { column: c.header })}
                      >
                        {c.header}
                        <span aria-hidden="true">{active ? (sort?.descending ? ' ▼' : ' ▲') : ' ↕'}</span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.key} data-label={c.hiddenHeader ? undefined : c.header}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length === 0 ? <p className="muted">{text.table.noneShown}</p> : null}
      {hasMore && onMore ? (
        <div className="actions">
          <button type="button" onClick={onMore} disabled={loadingMore}>
            {loadingMore ? text.loading : text.table.more}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** An amount as sent (a decimal string at the asset's scale), kept left to right in Arabic too. */
export const Amount = ({ value }: { value: string }) => (
  <span className="amount" dir="ltr">
    {value}
  </span>
);

/** A decimal without the trailing zeros of its scale ("0.200000000000000000" → "0.2"): the same amount. */
export const plain = plainDecimal;
