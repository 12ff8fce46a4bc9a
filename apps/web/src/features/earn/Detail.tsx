import type { EarnProduct, EarnRateDay } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../app/i18n.ts';
import { formatPercent } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { Empty } from '../../ui/PageState.tsx';
import { ScrollTable } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { Purchase } from './Purchase.tsx';
import {
  Capacity,
  Eligibility,
  IncomeWord,
  Investable,
  ProductFacts,
  RateFacts,
  SoldOut,
  useEarnFormat,
} from './parts.tsx';
import { earnQueries } from './queries.ts';

/** A small line of the unit price over the published days (a picture of the table below it). */
function PriceLine({ days }: { days: readonly EarnRateDay[] }) {
  if (days.length < 2) return null;
  // Drawing only: the unit price's shape, never a figure shown or sent.
  const values = days.map((d) => Number.parseFloat(d.unitPrice));
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const points = values
    .map(
      (v, i) =>
        `${((i / (values.length - 1)) * 100).toFixed(2)},${(36 - ((v - low) / span) * 32).toFixed(2)}`,
    )
    .join(' ');
  return (
    <svg
      className="earn-price-line"
      viewBox="0 0 100 40"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <polyline points={points} fill="none" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** A dynamic product's published days: past figures, newest first, never a promise. */
function PriceHistory({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const query = useQuery(earnQueries.price(product.id));
  return (
    <section className="card earn-history" aria-labelledby="price-history-title" data-testid="price-history">
      <h2 id="price-history-title">{t('earn.history.title')}</h2>
      <p className="small muted">{t('earn.history.note')}</p>
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : query.data.days.length === 0 ? (
        <Empty text={t('earn.history.none')} />
      ) : (
        <>
          <PriceLine days={query.data.days.slice(-30)} />
          <ScrollTable
            cards
            label={t('earn.history.caption')}
            head={[
              { text: t('earn.history.day') },
              { text: t('earn.history.rate'), num: true },
              { text: t('earn.history.unitPrice'), num: true },
            ]}
          >
            {[...query.data.days]
              .reverse()
              .slice(0, 30)
              .map((d) => (
                <tr key={d.day}>
                  <td>{f.day(d.day)}</td>
                  <td className="num" dir="ltr">
                    {formatPercent(f.language, d.rate, { minimumFractionDigits: 2 })}
                  </td>
                  <td className="num">{formatDecimal(f.language, d.unitPrice)}</td>
                </tr>
              ))}
          </ScrollTable>
        </>
      )}
    </section>
  );
}

/** The product, its facts, and the purchase (for a customer who is logged in and when it can be bought). */
function ProductView({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <div className="product-stack">
      <section
        className="card product-card earn-product"
        aria-labelledby="earn-product-name"
        data-product={product.id}
      >
        <div className="product-card-head">
          <h2 id="earn-product-name">{product.name}</h2>
          <span className="product-chips">
            <span className="earn-chip product-chip">{product.asset}</span>
            <IncomeWord income={product.income} />
            {product.type === 'vip' ? (
              <span className="earn-chip product-chip">{t('earn.vip.chip')}</span>
            ) : null}
          </span>
        </div>
        <RateFacts product={product} />
        <p className="small" data-testid="earn-explain">
          {t(
            `earn.explain.${product.income === 'static' && product.termDays === null ? 'flexible' : product.income}`,
          )}
        </p>
        <ProductFacts product={product} />
        <Capacity product={product} />
        <Investable product={product} />
        {product.soldOut ? <SoldOut reason={product.soldOut} /> : null}
        <Eligibility product={product} />
      </section>
      {product.income === 'dynamic' ? <PriceHistory product={product} /> : null}
      {product.soldOut ? null : (
        <NeedsLogin>
          {user ? <Purchase key={`${user.id}`} product={product} userId={user.id} /> : null}
        </NeedsLogin>
      )}
    </div>
  );
}

export function ProductScreen({ id, type }: { id: number | null; type: 'fund' | 'vip' }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const list = type === 'vip' ? '/financial/vipInvest' : '/financial/cryptoInvest';
  const query = useQuery({ ...earnQueries.product(book, id ?? 0), enabled: id !== null });
  const choose = (
    <Missing
      name="earn"
      text={id === null ? t('earn.detail.choose') : t('earn.detail.notFound')}
      to={list}
      back={type === 'vip' ? t('earn.detail.toVip') : t('earn.detail.toFunds')}
    />
  );
  if (id === null) return choose;
  if (!query.isSuccess) return <QueryState query={query} missing={choose} />;
  return <ProductView product={query.data} />;
}
