import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { Amount, type Column, DataTable, Money, MoneyRange } from './DataTable.tsx';
import { ratioToPercent } from './rates.ts';
import './kit.css';

/** An amount of an asset under the display rule (DataTable's `Money`), for the product screens. */
export { Money };

/** `12 %`: a ratio as a percentage, kept left to right. */
export const Percent = ({ ratio }: { ratio: string }) => <Amount value={`${ratioToPercent(ratio)} %`} />;

/** What a product row shows in the shared columns. */
type Listed = { id: number; name: string; asset: string; minAmount: string; maxAmount: string };

/** The columns every product list has: the id, the name (a link to its page), the asset, the amounts, the status. */
export const productColumns = {
  id: <Row,>(header: string, of: (row: Row) => Listed): Column<Row> => ({
    key: 'id',
    header,
    cell: (r) => of(r).id,
    sortValue: (r) => of(r).id,
  }),
  name: <Row,>(
    header: string,
    area: string,
    of: (row: Row) => Listed,
    beside?: (row: Row) => ReactNode,
  ): Column<Row> => ({
    key: 'product',
    header,
    cell: (r) => {
      const link = (
        <Link to={`/${area}/products/${of(r).id}`}>
          <strong>{of(r).name}</strong>
        </Link>
      );
      return beside ? (
        <span className="kit-stack">
          {link}
          {beside(r)}
        </span>
      ) : (
        link
      );
    },
    sortValue: (r) => of(r).name,
  }),
  asset: <Row,>(header: string, of: (row: Row) => Listed): Column<Row> => ({
    key: 'asset',
    header,
    cell: (r) => of(r).asset,
    sortValue: (r) => of(r).asset,
  }),
  amounts: <Row,>(header: string, of: (row: Row) => Listed, sortable = false): Column<Row> => ({
    key: 'amounts',
    header,
    cell: (r) => {
      const p = of(r);
      return <MoneyRange min={p.minAmount} max={p.maxAmount} asset={p.asset} />;
    },
    ...(sortable ? { sortValue: (r: Row) => Number(of(r).minAmount) } : {}),
  }),
  /** On sale or why not; `warn` marks a product that should sell and cannot. */
  status: <Row,>(header: string, text: (row: Row) => string, warn: (row: Row) => boolean): Column<Row> => ({
    key: 'status',
    header,
    cell: (r) => <strong className={warn(r) ? 'overdue' : undefined}>{text(r)}</strong>,
    sortValue: text,
  }),
};

/** The words of a product list. */
export type ProductListTexts = {
  productsHeading: string;
  newProduct: string;
  productsIntro: string;
  readOnly: string;
  productsEmpty: string;
};

/**
 * A product area's list (/admin/<area>/products): the heading and, for whom may create, the link to
 * a new product; the intro (and that the list is read only, for the others); then the table of the
 * products with the area's columns, filtered by `filterText`.
 */
export function ProductList<Row>({
  area,
  t,
  mayCreate,
  query,
  columns,
  rowKey,
  filterText,
  testId,
}: {
  area: string;
  t: ProductListTexts;
  mayCreate: boolean;
  query: UseQueryResult<Row[]>;
  columns: Column<Row>[];
  rowKey: (row: Row) => number;
  filterText: (row: Row) => string;
  testId: string;
}) {
  const { text } = useBackOffice();
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <div className="kit-head">
        <h2 id={headingId} tabIndex={-1}>
          {t.productsHeading}
        </h2>
        {mayCreate ? (
          <Link className="button primary" to={`/${area}/products/new`}>
            {t.newProduct}
          </Link>
        ) : null}
      </div>
      <p className="muted">{t.productsIntro}</p>
      {mayCreate ? null : <p className="muted">{t.readOnly}</p>}
      <DataTable
        caption={t.productsHeading}
        columns={columns}
        rows={query.data}
        rowKey={rowKey}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={t.productsEmpty}
        filterText={filterText}
        testId={testId}
      />
    </section>
  );
}
