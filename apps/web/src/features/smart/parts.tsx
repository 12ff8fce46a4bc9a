import {
  ASSET_SCALES,
  type Asset,
  Code,
  type SmartProduct,
  type SmartRealisedYield,
  type SmartRisk,
  type SmartState,
} from '@swx/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useFigureFormat } from '../../app/figures.ts';
import { formatDecimal, formatNumber } from '../../app/i18n.ts';
import { formatAmount, formatPercent, signOf } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { Facts, type Tone } from '../../ui/product/Facts.tsx';
import { BookNotice, ProductPage } from '../../ui/product/ProductPage.tsx';
import { SectionNav } from '../../ui/SectionNav.tsx';
import { smartTexts } from './texts.ts';
import '../../ui/product/product.css';
import './smart.css';

/**
 * A smart trading screen in the product page (ui/product/): plans are live-book money, so the
 * book badge shows once logged in.
 */
export function SmartPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ProductPage name="smart" texts={smartTexts} title={title} nav={<SmartNav />}>
      {children}
    </ProductPage>
  );
}

/** Products, my plans: links, the current one marked (aria-current). */
function SmartNav() {
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  const links = [
    ['/trading', 'smart.nav.products'],
    ...(isLogin ? ([['/trading/plans', 'smart.nav.plans']] as const) : []),
  ] as const;
  return <SectionNav label={t('smart.nav.label')} links={links.map(([to, key]) => [to, t(key)] as const)} />;
}

/** The demo book cannot use smart trading (spec §5): it says so and offers the switch to the live account. */
export function DemoDisabled() {
  const { t } = useTranslation();
  return <BookNotice name="smart" title={t('smart.demo.title')} text={t('smart.demo.text')} />;
}

/** The reader's formatters of smart figures. */
export function useSmartFormat() {
  const { t } = useTranslation();
  const figures = useFigureFormat();
  const { language } = figures;
  const scale = (asset: string) => ASSET_SCALES[asset as Asset] ?? 8;
  return {
    ...figures,
    /** A result with its sign ("+12.50 USDT"), as an isolate. */
    signed: (amount: string, asset: string) =>
      `\u2066${formatAmount(language, amount, scale(asset), { sign: true })} ${asset}\u2069`,
    /** A ratio as a percentage with two decimals at least, as an isolate. */
    percent: (ratio: string) => `\u2066${formatPercent(language, ratio, { minimumFractionDigits: 2 })}\u2069`,
    signedPercent: (ratio: string) =>
      `\u2066${signOf(ratio) > 0 ? '+' : ''}${formatPercent(language, ratio, { minimumFractionDigits: 2 })}\u2069`,
    price: (price: string) => `\u2066${formatDecimal(language, price)}\u2069`,
    days: (count: number) => t('smart.days', { count }),
    /** A duration in days from the server's decimal ("1", "0.458333"), to two decimals. */
    span: (days: string) => t('smart.days', { count: Math.round(Number(days) * 100) / 100 }),
    /** A number of minutes as hours and minutes ("36 h 1 min"). */
    hoursMinutes: (minutes: number) =>
      t('smart.hoursMinutes', {
        hours: formatNumber(language, Math.floor(minutes / 60)),
        minutes: formatNumber(language, minutes % 60),
      }),
    /** Running time: whole days, then hours and minutes. */
    running: (seconds: number) =>
      t('smart.runningTime', {
        days: t('smart.days', { count: Math.floor(seconds / 86_400) }),
        hours: formatNumber(language, Math.floor((seconds % 86_400) / 3600)),
        minutes: formatNumber(language, Math.floor((seconds % 3600) / 60)),
      }),
  };
}

/** A gain, a loss or nothing: the sign, a word and a mark, never colour alone. */
export function Move({ amount, asset, testId }: { amount: string; asset: string; testId?: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const sign = signOf(amount);
  const word = sign > 0 ? t('smart.move.gain') : sign < 0 ? t('smart.move.loss') : t('smart.move.none');
  return (
    <span
      className="smart-move"
      data-sign={sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat'}
      data-value={amount}
      data-testid={testId}
    >
      <span aria-hidden="true">{sign > 0 ? '▲ ' : sign < 0 ? '▼ ' : ''}</span>
      {f.signed(amount, asset)} <span className="smart-move-word">({word})</span>
    </span>
  );
}

/** The tone of a plan's state (its words say it). */
const STATE_TONES: Partial<Record<SmartState, Tone>> = { in_progress: 'success', stopped: 'caution' };

/** A plan's state in words, with its own mark. */
export function StateWord({ state }: { state: SmartState }) {
  const { t } = useTranslation();
  return (
    <span
      className="smart-status product-chip"
      data-state={state}
      data-tone={STATE_TONES[state]}
      data-testid="smart-status"
    >
      {t(`smart.state.${state}`)}
    </span>
  );
}

/** The realised yield of past plans, labelled as realised with its period; or "no record yet". */
export function Realised({ realised }: { realised: SmartRealisedYield | null }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  if (realised === null)
    return (
      <p className="smart-realised muted" data-testid="realised" data-value="">
        {t('smart.realised.none')}
      </p>
    );
  return (
    <div className="smart-realised" data-testid="realised" data-value={realised.dailyYield}>
      <p>
        <span className="smart-realised-value">{f.signedPercent(realised.dailyYield)}</span>{' '}
        <span className="muted">{t('smart.realised.daily')}</span>
      </p>
      <p className="small" data-testid="realised-period" data-days={realised.days}>
        {t('smart.realised.period', {
          from: f.day(realised.from),
          // The period ends at the plans' last moment: the reader is shown the day of that moment.
          to: f.day(new Date(Date.parse(realised.to) - 1000).toISOString()),
          daily: f.signedPercent(realised.dailyYield),
          days: f.span(realised.days),
          return: f.signedPercent(realised.periodReturn),
        })}
      </p>
      <p className="small muted">{t('smart.realised.past')}</p>
    </div>
  );
}

/** The risk limits every trade and the whole plan carry. */
export function RiskFacts({ risk, testId }: { risk: SmartRisk; testId?: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const rows: [string, string, string, string][] = [
    [
      'stopLoss',
      t('smart.risk.stopLoss'),
      t('smart.risk.stopLossValue', { share: f.percent(risk.stopLoss) }),
      risk.stopLoss,
    ],
    [
      'takeProfit',
      t('smart.risk.takeProfit'),
      t('smart.risk.takeProfitValue', { share: f.percent(risk.takeProfit) }),
      risk.takeProfit,
    ],
    ['leverage', t('smart.risk.leverage'), `\u2066${f.count(risk.leverage)}×\u2069`, String(risk.leverage)],
    [
      'marginShare',
      t('smart.risk.marginShare'),
      t('smart.risk.marginShareValue', { share: f.percent(risk.marginShare) }),
      risk.marginShare,
    ],
    [
      'drawdownStop',
      t('smart.risk.drawdownStop'),
      t('smart.risk.drawdownStopValue', { share: f.percent(risk.drawdownStop) }),
      risk.drawdownStop,
    ],
  ];
  return (
    <Facts
      facts={rows.map(([name, label, shown, value]) => ({ name, label, shown, value }))}
      testId={testId}
    />
  );
}

/** The platform's fee in words: a share of a positive result at the end, or none. */
export function useFeeText(): (share: string) => string {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (share) =>
    signOf(share) === 0 ? t('smart.fee.none') : t('smart.fee.share', { share: f.percent(share) });
}

/** The facts every product states: strategy, instruments, timeframes, amounts, fee, capacity. */
export function ProductFacts({ product }: { product: SmartProduct }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const feeText = useFeeText();
  const rows: [string, ReactNode, string][] = [
    ['strategy', t(`${product.strategy.docKey}.name`), product.strategy.key],
    ['instruments', <bdi key="i">{product.instruments.join(', ')}</bdi>, product.instruments.join(',')],
    ['timeframes', product.timeframes.map((d) => f.days(d)).join(' · '), product.timeframes.join(',')],
    [
      'amounts',
      t('smart.range', {
        minimum: f.exact(product.minAmount, product.asset),
        maximum: f.exact(product.maxAmount, product.asset),
      }),
      `${product.minAmount}-${product.maxAmount}`,
    ],
    ['fee', feeText(product.feeShare), product.feeShare],
    [
      'tradingFee',
      t('smart.cost.tradingFee', { rate: f.percent(product.tradingFeeRate) }),
      product.tradingFeeRate,
    ],
    ['spread', t('smart.cost.spread', { rate: f.percent(product.spreadRate) }), product.spreadRate],
    [
      'capacity',
      t('smart.capacity', {
        taken: f.money(product.taken, product.asset),
        capacity: f.money(product.capacity, product.asset),
      }),
      product.taken,
    ],
  ];
  return (
    <Facts
      facts={rows.map(([name, shown, value]) => ({ name, label: t(`smart.fact.${name}`), shown, value }))}
      mark="fact"
    />
  );
}

/** Why a product takes no new plan now, in words (or nothing when it does). */
export function Closed({ product }: { product: SmartProduct }) {
  const { t } = useTranslation();
  if (product.enabled && !product.soldOut) return null;
  return (
    <p
      className="product-caution"
      data-testid="smart-closed"
      data-reason={product.enabled ? 'sold_out' : 'disabled'}
    >
      {product.enabled ? t('smart.closed.soldOut') : t('smart.closed.disabled')}
    </p>
  );
}

/** 10015's reason when the plan's market is closed for its whole window (the server names it and when it opens). */
function marketClosed(
  data: unknown,
): data is { reason: 'market_closed'; instrument: string; from: string; to: string; opensAt: string } {
  return (
    typeof data === 'object' && data !== null && (data as { reason?: unknown }).reason === 'market_closed'
  );
}

/** What a refusal means for the customer, in their words, with what they can do about it. */
export function Refusal({ error, product }: { error: unknown; product?: SmartProduct | undefined }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  if (!(error instanceof ApiFailure))
    return (
      <p className="form-error" role="alert">
        {t('state.error')}
      </p>
    );
  let text = error.message;
  let action: ReactNode = null;
  switch (error.code) {
    case Code.SMART_PRODUCT_INCORRECT:
      text = t('smart.refusal.product');
      action = <Link to="/trading">{t('smart.refusal.toProducts')}</Link>;
      break;
    case Code.NO_MATCHING_DAYS:
      text = product
        ? t('smart.refusal.timeframeOf', { timeframes: product.timeframes.map((d) => f.days(d)).join(', ') })
        : t('smart.refusal.timeframe');
      break;
    case Code.NOT_AVAILABLE_FOR_TRADING:
      text = marketClosed(error.data)
        ? t('smart.refusal.marketClosed', {
            instrument: error.data.instrument,
            from: f.date(error.data.from),
            to: f.date(error.data.to),
            opensAt: f.date(error.data.opensAt),
          })
        : t('smart.refusal.notEnabled');
      break;
    case Code.INCORRECT_PURCHASE_AMOUNT:
      text = product
        ? t('smart.refusal.amountRange', {
            minimum: f.exact(product.minAmount, product.asset),
            maximum: f.exact(product.maxAmount, product.asset),
          })
        : t('smart.refusal.amount');
      break;
    case Code.INSUFFICIENT_BALANCE:
      text = t('smart.refusal.balance');
      action = <Link to="/profile/deposit">{t('smart.refusal.deposit')}</Link>;
      break;
    case Code.LIVE_BOOK_ONLY:
      text = t('smart.demo.text');
      action = <BookSwitch />;
      break;
    case Code.SOLD_OUT:
      text = t('smart.closed.soldOut');
      break;
    case Code.PRICE_CHANGED:
      text = t('smart.refusal.expired');
      break;
    case Code.NOT_FOUND:
      text = t('smart.refusal.notFound');
      break;
    default:
      break;
  }
  return (
    <div className="form-error smart-refusal product-refusal" role="alert" data-code={error.code}>
      <p>{text}</p>
      {action ? <div>{action}</div> : null}
    </div>
  );
}
