import { adminCalls, type SmartProduct, type SmartRealisedYield } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { shownAmount } from '../amount.ts';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column } from '../DataTable.tsx';
import { Money, ProductList, productColumns } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { SMART_TEXT, type SmartText } from './smart.text.ts';
import './smart.css';

/** The smart-plan screens' text in the staff member's language. */
export function useSmartText(): SmartText {
  return SMART_TEXT[useBackOffice().language];
}

/** Every smart-plan product with what its plans hold (one query: the list, a product's page, the monitor's filter). */
export function useSmartProducts() {
  const { language } = useBackOffice();
  return useQuery({
    queryKey: keys.smartProducts(language),
    queryFn: () => callAdmin('listSmartProducts'),
  });
}

/**
 * A text with parts put in its placeholders (`{{name}}`): each figure keeps its own direction
 * (an Amount) while the sentence around it reads in the staff member's language.
 */
export function Filled({ template, parts }: { template: string; parts: Record<string, ReactNode> }) {
  const pieces = template.split(/\{\{\s*(\w+)\s*\}\}/);
  return (
    <span>
      {pieces.map((piece, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed template, in order
        <Fragment key={i}>{i % 2 === 1 ? (parts[piece] ?? piece) : piece}</Fragment>
      ))}
    </span>
  );
}

/** The timeframes offered, in days: "7, 30, 90". */
export const timeframesText = (p: SmartProduct) => p.timeframes.join(', ');

/** On sale, sold out, or switched off. */
export function statusText(t: SmartText, p: SmartProduct): string {
  if (!p.enabled) return t.disabled;
  return p.soldOut ? t.soldOut : t.enabled;
}

/** The platform's fee in words: a share of a positive result, or none. */
export const feeText = (t: SmartText, p: { feeShare: string }) =>
  Number(p.feeShare) === 0 ? t.noFee : fill(t.feeValue, { share: ratioToPercent(p.feeShare) });

/** A realised record: the daily yield and the return over its period, with the period (past, never promised). */
export function Realised({ realised }: { realised: SmartRealisedYield | null }) {
  const t = useSmartText();
  if (!realised) return <span className="muted">{t.noRecord}</span>;
  return (
    <span className="kit-stack">
      <span dir="auto">
        {fill(t.realisedValue, {
          daily: ratioToPercent(realised.dailyYield),
          total: ratioToPercent(realised.periodReturn),
          // The days the money was in the plans (a decimal; to two places): daily × days = total.
          days: String(Math.round(Number(realised.days) * 100) / 100),
        })}
      </span>
      <span className="muted" dir="auto">
        {fill(t.realisedPeriod, { from: realised.from.slice(0, 10), to: realised.to.slice(0, 10) })}
      </span>
    </span>
  );
}

/** The strategy's name and the bars it decides on. */
export function StrategyName({ product: p }: { product: SmartProduct }) {
  const t = useSmartText();
  return (
    <span className="kit-stack">
      <span>{t.strategies[p.strategy.key]}</span>
      <span className="muted">{fill(t.barsValue, { minutes: p.strategy.barMinutes })}</span>
    </span>
  );
}

/** What the plans hold against the capacity, with a bar. */
export function Capacity({ product: p }: { product: SmartProduct }) {
  const t = useSmartText();
  const { language } = useBackOffice();
  const capacity = Number(p.capacity);
  const share = capacity > 0 ? Math.min(1, Number(p.taken) / capacity) : 0;
  return (
    <span className="kit-stack">
      <Filled
        template={t.takenValue}
        parts={{
          taken: <Amount value={shownAmount(language, p.taken, p.asset)} />,
          capacity: <Money value={p.capacity} asset={p.asset} />,
        }}
      />
      <span className="smart-meter" aria-hidden="true">
        <span style={{ inlineSize: `${(share * 100).toFixed(1)}%` }} />
      </span>
    </span>
  );
}

/**
 * Smart-plan products (/admin/smart/products): each product's strategy, instrument, timeframes,
 * amounts, capacity and what is taken, fee share, status and realised record. Admins create and
 * change products; finance reads.
 */
export function SmartProducts() {
  const { staff } = useBackOffice();
  const t = useSmartText();
  const of = (p: SmartProduct) => p;
  const columns: Column<SmartProduct>[] = [
    productColumns.id(t.id, of),
    productColumns.name(t.product, 'smart', of),
    {
      key: 'strategy',
      header: t.strategy,
      cell: (p) => <StrategyName product={p} />,
      sortValue: (p) => t.strategies[p.strategy.key],
    },
    {
      key: 'instruments',
      header: t.instruments,
      cell: (p) => <span dir="ltr">{p.instruments.join(', ')}</span>,
      sortValue: (p) => p.instruments.join(','),
    },
    {
      key: 'timeframes',
      header: t.timeframes,
      cell: (p) => <span dir="ltr">{timeframesText(p)}</span>,
      sortValue: (p) => p.timeframes[0] ?? 0,
    },
    productColumns.amounts(t.amounts, of, true),
    {
      key: 'capacity',
      header: t.capacity,
      cell: (p) => <Capacity product={p} />,
      sortValue: (p) => Number(p.taken) / Math.max(Number(p.capacity), 1e-9),
    },
    { key: 'fee', header: t.feeShare, cell: (p) => feeText(t, p), sortValue: (p) => Number(p.feeShare) },
    productColumns.status(
      t.status,
      (p) => statusText(t, p),
      (p) => p.enabled && p.soldOut,
    ),
    {
      key: 'realised',
      header: t.realised,
      cell: (p) => <Realised realised={p.realised} />,
      sortValue: (p) => Number(p.realised?.periodReturn ?? Number.NEGATIVE_INFINITY),
    },
  ];
  return (
    <ProductList
      area="smart"
      t={t}
      mayCreate={allowed(staff, adminCalls.createSmartProduct)}
      query={useSmartProducts()}
      columns={columns}
      rowKey={(p) => p.id}
      filterText={(p) =>
        `${p.id} ${p.name} ${p.instruments.join(' ')} ${t.strategies[p.strategy.key]} ${statusText(t, p)}`
      }
      testId="smart-products"
    />
  );
}
