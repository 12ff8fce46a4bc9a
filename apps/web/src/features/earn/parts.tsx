import {
  ASSET_SCALES,
  Code,
  type EarnProduct,
  type EarnState,
  formatMinor,
  SOLD_OUT_REASONS,
} from '@swx/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useFigureFormat } from '../../app/figures.ts';
import { formatNumber } from '../../app/i18n.ts';
import { formatPercent, minorOf } from '../../app/money.ts';
import { CopyButton as SharedCopyButton } from '../../ui/CopyButton.tsx';
import { Facts, type Tone } from '../../ui/product/Facts.tsx';
import { ProductPage } from '../../ui/product/ProductPage.tsx';
import { SectionNav } from '../../ui/SectionNav.tsx';
import { earnTexts } from './texts.ts';
import '../../ui/product/product.css';
import './earn.css';

/**
 * An earn screen in the product page (ui/product/): products, reserves and investments are per
 * book. Products are shown to visitors too; what needs a session says so where it is.
 */
export function EarnPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ProductPage name="earn" texts={earnTexts} title={title} nav={<EarnNav />}>
      {children}
    </ProductPage>
  );
}

/** Crypto funds, VIP funds, my investments: links, the current one marked (aria-current). */
export function EarnNav() {
  const { t } = useTranslation();
  const links = [
    ['/financial/cryptoInvest', 'title.cryptoInvest'],
    ['/financial/vipInvest', 'title.vipInvest'],
    ['/financial/myInvest/fund', 'earn.nav.myFunds'],
    ['/financial/myInvest/vip', 'earn.nav.myVip'],
  ] as const;
  return <SectionNav label={t('earn.nav.label')} links={links.map(([to, key]) => [to, t(key)] as const)} />;
}

/** The reader's formatters of earn figures. */
export function useEarnFormat() {
  const { t } = useTranslation();
  const figures = useFigureFormat();
  return {
    ...figures,
    percent: (ratio: string) => formatPercent(figures.language, ratio, { minimumFractionDigits: 2 }),
    days: (count: number) => t('earn.days', { count }),
    /** "30 days" or "Flexible". */
    term: (termDays: number | null) =>
      termDays === null ? t('earn.flexible') : t('earn.days', { count: termDays }),
  };
}

/** The most one can put in now: the smaller of the balance and what the product can still take (its maximum, capacity and reserve: `investable`). */
export function maxInvest(product: EarnProduct, available: string | undefined): string | null {
  const scale = ASSET_SCALES[product.asset];
  const values = [product.investable, ...(available === undefined ? [] : [available])].map((v) =>
    minorOf(v, product.asset),
  );
  if (values.some((v) => v === null)) return null;
  const least = (values as bigint[]).reduce((a, b) => (b < a ? b : a));
  return formatMinor(least < 0n ? 0n : least, scale);
}

/** How much of the capacity is taken, in per cent (0-100, rounded down). */
export function usedPercent(product: EarnProduct): number {
  const capacity = minorOf(product.capacity, product.asset);
  const invested = minorOf(product.invested, product.asset);
  if (!capacity || invested === null || capacity <= 0n) return 0;
  const share = (invested * 100n) / capacity;
  return Number(share > 100n ? 100n : share);
}

/**
 * The rate of a product: static (annual and daily; fixed for the term, or kept by a flexible
 * investment, which is redeemable any day) or dynamic (past, never promised).
 */
export function RateFacts({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (product.income === 'static')
    return (
      <div className="earn-rate" data-income="static">
        <p className="earn-rate-main">
          <span className="earn-rate-value" data-testid="annual-rate" data-value={product.annualRate ?? ''}>
            {product.annualRate === null ? '—' : f.percent(product.annualRate)}
          </span>{' '}
          <span className="earn-rate-label" data-testid="rate-label">
            {product.termDays === null ? t('earn.rate.annualFlexible') : t('earn.rate.annual')}
          </span>
        </p>
        <p className="small muted">
          {t('earn.rate.daily', { rate: product.dailyRate === null ? '—' : f.percent(product.dailyRate) })}
          {' · '}
          {t('earn.rate.fixed')}
        </p>
      </div>
    );
  if (product.trailingRate === null)
    return (
      <div className="earn-rate" data-income="dynamic">
        <p className="earn-rate-label" data-testid="trailing-rate" data-value="">
          {t('earn.rate.noHistory')}
        </p>
      </div>
    );
  return (
    <div className="earn-rate" data-income="dynamic">
      <p className="earn-rate-main">
        <span className="earn-rate-value" data-testid="trailing-rate" data-value={product.trailingRate}>
          {f.percent(product.trailingRate)}
        </span>{' '}
        <span className="earn-rate-label">{t('earn.rate.trailing')}</span>
      </p>
      <p className="small muted">{t('earn.rate.past')}</p>
    </div>
  );
}

/** Static or dynamic income, in words. */
export function IncomeWord({ income }: { income: 'static' | 'dynamic' }) {
  const { t } = useTranslation();
  return (
    <span className="earn-chip product-chip" data-income={income}>
      {t(`earn.income.${income}`)}
    </span>
  );
}

/** The words of a product's state: on sale, sold out, closed, or paused while its reserve is short. */
function soldOutTitle(reason: (typeof SOLD_OUT_REASONS)[number]): string {
  return reason === 'disabled' ? 'closed' : reason === 'reserve_short' ? 'paused' : 'title';
}

/** Why a product cannot be bought, in words. */
export function SoldOut({ reason }: { reason: (typeof SOLD_OUT_REASONS)[number] }) {
  const { t } = useTranslation();
  return (
    <p className="product-caution" data-testid="sold-out" data-reason={reason}>
      <strong>{t(`earn.soldOut.${soldOutTitle(reason)}`)}</strong> {t(`earn.soldOut.${reason}`)}
    </p>
  );
}

/** What the product can still take now (from its maximum, capacity left and free reserve). */
export function Investable({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (product.soldOut) return null;
  return (
    <p className="small earn-investable" data-testid="investable" data-value={product.investable}>
      {t('earn.investable', { amount: f.exact(product.investable, product.asset) })}
    </p>
  );
}

/** The capacity taken so far, as a bar and in words. */
export function Capacity({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const percent = usedPercent(product);
  return (
    <div className="earn-capacity">
      <p className="small">
        {t('earn.capacity', {
          invested: f.money(product.invested, product.asset),
          capacity: f.money(product.capacity, product.asset),
          percent: formatNumber(f.language, percent / 100, { style: 'percent' }),
        })}
      </p>
      <progress className="product-progress" max={100} value={percent} aria-hidden="true" />
    </div>
  );
}

/** The facts every product states: term, limits, penalty, eligibility, what is reserved for current investors. */
export function ProductFacts({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const rows: [string, ReactNode, string][] = [
    [t('earn.fact.asset'), product.asset, 'asset'],
    [t('earn.fact.term'), f.term(product.termDays), 'term'],
    [
      t('earn.fact.limits'),
      t('earn.range', {
        minimum: f.exact(product.minAmount, product.asset),
        maximum: f.exact(product.maxAmount, product.asset),
      }),
      'limits',
    ],
    [
      t('earn.fact.penalty'),
      product.termDays === null
        ? t('earn.noPenalty')
        : t('earn.penaltyRule', { rate: f.percent(product.penaltyRate) }),
      'penalty',
    ],
    [
      t('earn.fact.reserved'),
      <span key="r" data-testid="reserved-interest" data-value={product.reservedInterest}>
        {f.money(product.reservedInterest, product.asset)}
      </span>,
      'reserved',
    ],
  ];
  if (product.income === 'dynamic' && product.basket.length > 0)
    rows.push([t('earn.fact.basket'), product.basket.join(', '), 'basket']);
  return <Facts facts={rows.map(([label, shown, name]) => ({ name, label, shown }))} mark="fact" />;
}

/** Who may invest (VIP): a verified identity, one investment at a time. */
export function Eligibility({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  if (!product.requiresKyc && !product.onePerCustomer) return null;
  return (
    <ul className="product-rules" data-testid="eligibility">
      {product.requiresKyc ? (
        <li>
          {t('earn.rule.kyc')} <Link to="/profile/verification">{t('title.verification')}</Link>
        </li>
      ) : null}
      {product.onePerCustomer ? <li>{t('earn.rule.one')}</li> : null}
    </ul>
  );
}

/** Where a product's page is. */
export function productPath(product: { id: number; type: 'fund' | 'vip' }): string {
  return product.type === 'vip'
    ? `/financial/vipInvestDetail/${product.id}`
    : `/financial/cryptoInvestDetail?id=${product.id}`;
}

/** One product as a card: name, asset, income, rate, term, limits, capacity, sold out, reserve. */
export function ProductCard({ product }: { product: EarnProduct }) {
  const { t } = useTranslation();
  const headingId = `earn-product-${product.id}`;
  return (
    <li
      className="card product-card earn-card"
      data-product={product.id}
      data-income={product.income}
      data-sold-out={product.soldOut ?? ''}
      aria-labelledby={headingId}
    >
      <div className="product-card-head">
        <h2 id={headingId}>
          <Link to={productPath(product)}>{product.name}</Link>
        </h2>
        <span className="product-chips">
          <span className="earn-chip product-chip">{product.asset}</span>
          <IncomeWord income={product.income} />
        </span>
      </div>
      <RateFacts product={product} />
      <ProductFacts product={product} />
      <Capacity product={product} />
      <Investable product={product} />
      {product.soldOut ? <SoldOut reason={product.soldOut} /> : null}
      {product.type === 'vip' ? <Eligibility product={product} /> : null}
      <Link className="button primary block" to={productPath(product)} aria-describedby={headingId}>
        {product.soldOut ? t('earn.card.view') : t('earn.card.invest')}
      </Link>
    </li>
  );
}

/** The tone of an investment's status (its words say it). */
const STATUS_TONES: Partial<Record<EarnState, Tone>> = {
  pending: 'caution',
  in_progress: 'success',
  rejected: 'danger',
};

/** An investment's status in words, with its own mark; in progress but unpaid while its product's reserve is short: paused. */
export function StatusWord({ status, paused = false }: { status: EarnState; paused?: boolean }) {
  const { t } = useTranslation();
  const shown = paused && status === 'in_progress';
  return (
    <span
      className="earn-status product-chip"
      data-state={shown ? 'paused' : status}
      data-tone={shown ? 'caution' : STATUS_TONES[status]}
      data-testid="earn-status"
    >
      {shown ? t('earn.status.paused') : t(`earn.status.${status}`)}
    </span>
  );
}

/** What a refusal means for the customer, in their words, with what they can do about it. */
export function Refusal({
  error,
  product,
  demo,
}: {
  error: unknown;
  product?: EarnProduct | undefined;
  demo: boolean;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (!(error instanceof ApiFailure))
    return (
      <p className="form-error" role="alert">
        {t('state.error')}
      </p>
    );
  let text = error.message;
  let action: ReactNode = null;
  switch (error.code) {
    case Code.INSUFFICIENT_BALANCE:
      text = t('earn.refusal.balance');
      if (!demo) action = <Link to="/profile/deposit">{t('earn.refusal.deposit')}</Link>;
      break;
    case Code.WRONG_INVESTMENT_AMOUNT: {
      // The server names the most it takes now (its maximum, or less when the reserve or capacity bounds it).
      const maximum = (error.data as { maximum?: unknown } | null)?.maximum;
      text = product
        ? t('earn.refusal.amountRange', {
            minimum: f.exact(product.minAmount, product.asset),
            maximum: f.exact(typeof maximum === 'string' ? maximum : product.maxAmount, product.asset),
          })
        : error.message;
      break;
    }
    case Code.ALREADY_PURCHASED:
      text = t('earn.refusal.already');
      action = <Link to={`/financial/myInvest/${product?.type ?? 'fund'}`}>{t('earn.refusal.seeMine')}</Link>;
      break;
    case Code.SOLD_OUT: {
      const reason = (error.data as { reason?: unknown } | null)?.reason;
      text =
        typeof reason === 'string' && (SOLD_OUT_REASONS as readonly string[]).includes(reason)
          ? `${t('earn.soldOut.title')} ${t(`earn.soldOut.${reason}`)}`
          : t('earn.soldOut.title');
      break;
    }
    case Code.VIP_NOT_ELIGIBLE:
      text = t('earn.refusal.kyc');
      action = <Link to="/profile/verification">{t('earn.refusal.verify')}</Link>;
      break;
    case Code.LIVE_BOOK_ONLY:
      text = t('earn.refusal.liveOnly');
      break;
    default:
      break;
  }
  return (
    <div className="form-error earn-refusal product-refusal" role="alert" data-code={error.code}>
      <p>{text}</p>
      {action ? <p>{action}</p> : null}
    </div>
  );
}

/** The shared copy button, saying the outcome in this feature's words. */
export function CopyButton(props: { text: string; label: string; name?: string }) {
  const { t } = useTranslation();
  return (
    <SharedCopyButton {...props} said={{ copied: t('earn.pay.copied'), failed: t('earn.pay.copyFailed') }} />
  );
}
