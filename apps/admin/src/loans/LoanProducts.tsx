import { adminCalls, type LoanProduct, type LoanProductAdmin } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import type { Column } from '../DataTable.tsx';
import { Money, ProductList, productColumns } from '../KitProductList.tsx';
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
  const { staff } = useBackOffice();
  const t = useLoanText();
  const of = (r: LoanProductAdmin) => r.product;
  const columns: Column<LoanProductAdmin>[] = [
    productColumns.id(t.id, of),
    productColumns.name(t.product, 'loans', of),
    productColumns.asset(t.asset, of),
    productColumns.amounts(t.amounts, of),
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
        <span className="kit-stack">
          <span>{rateText(t, p)}</span>
          <span className="muted">
            {t.interestFree}: {p.interestFreeDays}
          </span>
        </span>
      ),
      sortValue: (r) => Number(r.product.dailyRate),
    },
    { key: 'late', header: t.late, cell: ({ product: p }) => lateText(t, p) },
    productColumns.status(
      t.status,
      (r) => statusText(t, r.product),
      (r) => r.product.enabled && !r.product.available,
    ),
    {
      key: 'pool',
      header: t.poolColumn,
      cell: ({ pool, product: p }) => (
        <dl className="kit-figures">
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
    <ProductList
      area="loans"
      t={t}
      mayCreate={allowed(staff, adminCalls.createLoanProduct)}
      query={useLoanProducts()}
      columns={columns}
      rowKey={(r) => r.product.id}
      filterText={(r) => `${r.product.id} ${r.product.name} ${r.product.asset}`}
      testId="loan-products"
    />
  );
}
