import { adminCalls, type EarnProduct, type EarnProductAdmin } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { amountText, shownAmount } from '../amount.ts';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, MoneyRange } from '../DataTable.tsx';
import { Money, ProductList, productColumns } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { EARN_TEXT, type EarnText } from './earn.text.ts';
import './earn.css';

/** The earn screens' text in the staff member's language. */
export function useEarnText(): EarnText {
  return EARN_TEXT[useBackOffice().language];
}

/** Every product with its reserve per book (one query, shared by the list and a product's page). */
export function useEarnProducts() {
  const { language } = useBackOffice();
  return useQuery({
    queryKey: keys.earnProducts(language),
    queryFn: () => callAdmin('listEarnProducts'),
  });
}

/** Fixed term or flexible. */
export const termText = (t: EarnText, p: EarnProduct) =>
  p.termDays === null ? t.flexible : fill(t.termDays, { days: p.termDays });

/** Static: the annual and daily rate; dynamic: the realised trailing rate, never a promise. */
export function RateText({ product: p }: { product: EarnProduct }) {
  const t = useEarnText();
  if (p.income === 'static' && p.annualRate !== null)
    return (
      <span dir="auto">
        {fill(t.rateValue, {
          annual: ratioToPercent(p.annualRate),
          daily: ratioToPercent(p.dailyRate ?? '0'),
        })}
      </span>
    );
  return (
    <span className="kit-stack">
      <span>
        {p.trailingRate === null
          ? t.noTrailing
          : fill(t.trailingValue, { rate: ratioToPercent(p.trailingRate) })}
      </span>
      {p.basket.length > 0 ? (
        <span className="muted">{fill(t.basketValue, { codes: p.basket.join(', ') })}</span>
      ) : null}
    </span>
  );
}

/** On sale, or why not. */
export function statusText(t: EarnText, p: EarnProduct): string {
  if (p.soldOut) return t.soldOut[p.soldOut];
  return p.enabled ? t.enabled : t.disabled;
}

/** One book's figures in a cell: reserve free, interest reserved, invested (investments). */
function BookFigures({ row, book }: { row: EarnProductAdmin; book: 'demo' | 'live' }) {
  const t = useEarnText();
  const figures = row.books.find((b) => b.book === book);
  if (!figures) return <>—</>;
  const asset = row.product.asset;
  return (
    <dl className="kit-figures" data-book={book}>
      <div>
        <dt>{t.reserveFree}</dt>
        <dd>
          <Money value={figures.reserveFree} asset={asset} />
        </dd>
      </div>
      <div>
        <dt>{t.reservedShort}</dt>
        <dd>
          <Money value={figures.reservedInterest} asset={asset} />
        </dd>
      </div>
      <div>
        <dt>{t.investedCount}</dt>
        <dd>
          <Money value={figures.invested} asset={asset} /> ({figures.investments})
        </dd>
      </div>
      {figures.shortSince ? (
        <div className="earn-short" data-short-since={figures.shortSince}>
          <dt>{t.shortSince}</dt>
          <dd>{figures.shortSince}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** A product's limits: the amounts one investment may be, and what is invested against the capacity. */
function Limits({ product: p }: { product: EarnProduct }) {
  const t = useEarnText();
  const { language } = useBackOffice();
  return (
    <dl className="kit-figures">
      <div>
        <dt>{t.limits}</dt>
        <dd>
          <MoneyRange min={p.minAmount} max={p.maxAmount} asset={p.asset} />
        </dd>
      </div>
      <div>
        <dt>{t.capacity}</dt>
        <dd>
          {fill(t.capacityValue, {
            invested: shownAmount(language, p.invested, p.asset),
            capacity: amountText(language, p.capacity, p.asset),
          })}
        </dd>
      </div>
    </dl>
  );
}

/**
 * Earn products (/admin/earn/products): every fund and VIP product with its terms and, per book,
 * its reserve beside what is promised to current investors. Admins create and change products;
 * finance reads them and funds reserves on a product's page.
 */
export function EarnProducts() {
  const { staff } = useBackOffice();
  const t = useEarnText();
  const of = (r: EarnProductAdmin) => r.product;
  const columns: Column<EarnProductAdmin>[] = [
    productColumns.id(t.id, of),
    productColumns.name(t.product, 'earn', of, ({ product: p }) => (
      <span className="earn-tag">{t.types[p.type]}</span>
    )),
    productColumns.asset(t.asset, of),
    {
      key: 'terms',
      header: t.termsHeading,
      cell: ({ product: p }) => (
        <span className="kit-stack">
          <span>
            {t.incomes[p.income]} · {termText(t, p)}
          </span>
          <RateText product={p} />
          {p.termDays === null ? null : (
            <span>{fill(t.penaltyValue, { rate: ratioToPercent(p.penaltyRate) })}</span>
          )}
        </span>
      ),
      sortValue: (r) => `${r.product.income} ${String(r.product.termDays ?? 0).padStart(5, '0')}`,
    },
    { key: 'limits', header: t.limitsHeader, cell: ({ product: p }) => <Limits product={p} /> },
    {
      key: 'rules',
      header: t.rules,
      cell: ({ product: p }) => (
        <span className="kit-stack">
          <span>{p.requiresKyc ? t.kycRequired : t.kycNotRequired}</span>
          <span>{p.onePerCustomer ? t.onePer : t.manyPer}</span>
        </span>
      ),
    },
    productColumns.status(
      t.status,
      (r) => statusText(t, r.product),
      (r) => Boolean(r.product.soldOut),
    ),
    {
      key: 'demo',
      header: fill(t.bookColumn, { book: t.books.demo }),
      cell: (r) => <BookFigures row={r} book="demo" />,
    },
    {
      key: 'live',
      header: fill(t.bookColumn, { book: t.books.live }),
      cell: (r) => <BookFigures row={r} book="live" />,
    },
  ];
  return (
    <ProductList
      area="earn"
      t={t}
      mayCreate={allowed(staff, adminCalls.createEarnProduct)}
      query={useEarnProducts()}
      columns={columns}
      rowKey={(r) => r.product.id}
      filterText={(r) => `${r.product.id} ${r.product.name} ${r.product.asset} ${r.product.basket.join(' ')}`}
      testId="earn-products"
    />
  );
}
