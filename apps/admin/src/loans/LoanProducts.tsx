import { adminCalls, type LoanProduct, type LoanProductAdmin } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, DataTable, plain } from '../DataTable.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { LOAN_TEXT, type LoanText } from './loans.text.ts';
import './loans.css';

/** The loan screens' text in the staff member's language. */
export function useLoanText(): LoanText {
  return LOAN_TEXT[useBackOffice().language];
}

/** Every loan product with its asset's lending pool (one query: the list and a product's page). */
export function useLoanProducts() {
  const { language } = useBackOffice();
  return useQuery({
    queryKey: keys.loanProducts(language),
    queryFn: () => callAdmin('listLoanProducts'),
  });
}

/** An amount of an asset, exact (the ledger's units, trailing zeros dropped), left to right. */
export const Money = ({ value, asset }: { value: string; asset: string }) => (
  <Amount value={`${plain(value)} ${asset}`} />
);

/** `0.05 %`: a ratio as a percentage, kept left to right. */
export const Percent = ({ ratio }: { ratio: string }) => <Amount value={`${ratioToPercent(ratio)} %`} />;

/** The terms offered, in days: "7, 14, 30". */
export const termsText = (p: LoanProduct) => p.terms.join(', ');

/** Open for applications, switched off, or waiting for its pool. */
export function statusText(t: LoanText, p: LoanProduct): string {
  if (!p.enabled) return t.disabled;
  return p.available ? t.enabled : t.poolShort;
}

/** A product's interest and late-payment rule in words (rates as percentages). */
export const rateText = (t: LoanText, p: LoanProduct) =>
  fill(t.rateValue, { rate: ratioToPercent(p.dailyRate) });
export const lateText = (t: LoanText, p: LoanProduct) =>
  fill(t.lateValue, { rate: ratioToPercent(p.lateDailyRate), cap: ratioToPercent(p.lateCapRate) });

/**
 * Loan products (/admin/loans/products): each product's amounts, terms, rates and late rule, its
 * status and its asset's pool. Admins create and change products; finance and compliance read.
 */
export function LoanProducts() {
  const { text, staff } = useBackOffice();
  const t = useLoanText();
  const headingId = useId();
  const query = useLoanProducts();
  const mayCreate = allowed(staff, adminCalls.createLoanProduct);
  const columns: Column<LoanProductAdmin>[] = [
    { key: 'id', header: t.id, cell: (r) => r.product.id, sortValue: (r) => r.product.id },
    {
      key: 'product',
      header: t.product,
      cell: ({ product: p }) => (
        <Link to={`/loans/products/${p.id}`}>
          <strong>{p.name}</strong>
        </Link>
      ),
      sortValue: (r) => r.product.name,
    },
    { key: 'asset', header: t.asset, cell: (r) => r.product.asset, sortValue: (r) => r.product.asset },
    {
      key: 'amounts',
      header: t.amounts,
      cell: ({ product: p }) => <Amount value={`${plain(p.minAmount)} – ${plain(p.maxAmount)} ${p.asset}`} />,
    },
    {
      key: 'terms',
      header: t.terms,
      cell: ({ product: p }) => <span dir="ltr">{termsText(p)}</span>,
      sortValue: (r) => r.product.terms[0] ?? 0,
    },
    {
      key: 'rate',
      header: t.rate,
      cell: ({ product: p }) => (
        <span className="loan-stack">
          <span>{rateText(t, p)}</span>
          <span className="muted">
            {t.interestFree}: {p.interestFreeDays}
          </span>
        </span>
      ),
      sortValue: (r) => Number(r.product.dailyRate),
    },
    { key: 'late', header: t.late, cell: ({ product: p }) => lateText(t, p) },
    {
      key: 'status',
      header: t.status,
      cell: ({ product: p }) => (
        <strong className={p.enabled && !p.available ? 'overdue' : undefined}>{statusText(t, p)}</strong>
      ),
      sortValue: (r) => statusText(t, r.product),
    },
    {
      key: 'pool',
      header: t.poolColumn,
      cell: ({ pool, product: p }) => (
        <dl className="loan-figures">
          <div>
            <dt>{t.available}</dt>
            <dd>
              <Money value={pool.available} asset={p.asset} />
            </dd>
          </div>
          <div>
            <dt>{t.lent}</dt>
            <dd>
              <Money value={pool.lent} asset={p.asset} />
            </dd>
          </div>
        </dl>
      ),
    },
  ];
  return (
    <section className="panel" aria-labelledby={headingId}>
      <div className="loan-head">
        <h2 id={headingId} tabIndex={-1}>
          {t.productsHeading}
        </h2>
        {mayCreate ? (
          <Link className="button primary" to="/loans/products/new">
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
        rowKey={(r) => r.product.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={t.productsEmpty}
        filterText={(r) => `${r.product.id} ${r.product.name} ${r.product.asset}`}
        testId="loan-products"
      />
    </section>
  );
}
