import { type Language, plainDecimal } from '@swx/contract';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { amountText, rangeText } from './amount.ts';
import { failureMessage } from './api.ts';
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

/** A column that shows a value as it is and sorts by it (a name, an id, a count). */
export function textColumn<T>(key: string, header: string, value: (row: T) => string | number): Column<T> {
  return { key, header, cell: value, sortValue: value };
}

type Sort = { key: string; descending: boolean } | null;

/** What a table shows of a query: loading, its failure in words (the server's or generic), a retry. */
export function useQueryState(query: {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}) {
  const { text } = useBackOffice();
  return {
    loading: query.isPending,
    failure: query.isError ? failureMessage(query.error, text.error.generic) : '',
    onRetry: () => void query.refetch(),
  };
}

/** The "Load more" of a query paged by keys (an infinite query). */
export function pagesOf(query: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  return {
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    onMore: () => void query.fetchNextPage(),
  };
}

/** The rows shown: those the filter finds (when the table has one), in the chosen column's order. */
function useShown<T>(
  rows: T[] | undefined,
  columns: Column<T>[],
  filter: string,
  filterText: ((row: T) => string) | undefined,
  sort: Sort,
): T[] {
  return useMemo(() => {
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
}

/** A table before its rows: the failure (with a retry), loading, or that there are none; else null. */
function TableState({
  failure,
  onRetry,
  loading,
  empty,
}: {
  failure: string;
  onRetry?: (() => void) | undefined;
  loading: boolean;
  empty: string | null;
}) {
  const { text } = useBackOffice();
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
  if (loading)
    return (
      <p role="status" className="muted">
        {text.loading}
      </p>
    );
  return empty === null ? null : <p className="muted">{empty}</p>;
}

/** A column's header: hidden, a sort button (a second press turns the order), or the plain header. */
function HeaderCell<T>({
  column: c,
  sort,
  setSort,
}: {
  column: Column<T>;
  sort: Sort;
  setSort: (sort: Sort) => void;
}) {
  const { text } = useBackOffice();
  const active = sort?.key === c.key;
  return (
    <th scope="col" aria-sort={active ? (sort?.descending ? 'descending' : 'ascending') : undefined}>
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
}

/** The table itself: the caption for screen readers, the headers, the rows shown. */
function Table<T>({
  caption,
  columns,
  shown,
  rowKey,
  sort,
  setSort,
}: {
  caption: string;
  columns: Column<T>[];
  shown: T[];
  rowKey: (row: T) => string | number;
  sort: Sort;
  setSort: (sort: Sort) => void;
}) {
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <HeaderCell key={c.key} column={c} sort={sort} setSort={setSort} />
            ))}
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
  );
}

/** The filter over the rows and how many it shows of how many. */
function TableFilter({
  filter,
  setFilter,
  shown,
  total,
}: {
  filter: string;
  setFilter: (filter: string) => void;
  shown: number;
  total: number;
}) {
  const { text } = useBackOffice();
  const filterId = useId();
  return (
    <div className="table-tools">
      <label htmlFor={filterId}>{text.table.filter}</label>
      <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <span className="muted" aria-live="polite">
        {fill(text.table.shown, { count: shown, total })}
      </span>
    </div>
  );
}

export type DataTableProps<T> = {
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
};

/**
 * The back office's one data table: a caption, sortable columns (header buttons, aria-sort), a
 * filter over the rows shown, keyset paging ("Load more" asks the server for the page after the
 * last row), and the loading, empty and error states. Everything is reachable by keyboard.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, filterText, hasMore = false, loadingMore = false, onMore, testId } = props;
  const { text } = useBackOffice();
  const [sort, setSort] = useState<Sort>(null);
  const [filter, setFilter] = useState('');
  const shown = useShown(rows, props.columns, filter, filterText, sort);
  const before = (
    <TableState
      failure={props.failure}
      onRetry={props.onRetry}
      loading={props.loading || !rows}
      empty={rows?.length === 0 ? props.empty : null}
    />
  );
  if (props.failure || props.loading || !rows || rows.length === 0) return before;
  return (
    <div className="data-table" data-testid={testId}>
      {filterText ? (
        <TableFilter filter={filter} setFilter={setFilter} shown={shown.length} total={rows.length} />
      ) : null}
      <Table
        caption={props.caption}
        columns={props.columns}
        shown={shown}
        rowKey={props.rowKey}
        sort={sort}
        setSort={setSort}
      />
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

/** A figure (an amount as `Money` words it, a price, a rate), kept left to right in Arabic too. */
export const Amount = ({ value }: { value: string }) => (
  <span className="amount" dir="ltr">
    {value}
  </span>
);

/** An amount of an asset under the display rule ("5,000.00 USDT", amount.ts), left to right. */
export function Money({ value, asset, sign }: { value: string; asset: string; sign?: boolean }) {
  const { language } = useBackOffice();
  return <Amount value={amountText(language, value, asset, sign ? { sign } : {})} />;
}

/** A range of amounts of an asset ("100.00 – 5,000.00 USDT"). */
export function MoneyRange({ min, max, asset }: { min: string; max: string; asset: string }) {
  const { language } = useBackOffice();
  return <Amount value={rangeText(language, min, max, asset)} />;
}

/**
 * A decimal without the trailing zeros of its scale ("0.200000000000000000" → "0.2"): the same
 * amount, as a form's field holds it. Shown amounts go through `Money` / amount.ts.
 */
export const plain = plainDecimal;
