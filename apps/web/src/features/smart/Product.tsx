import {
  Code,
  type SmartBacktest,
  type SmartLiveRecord,
  type SmartProduct,
  type SmartQuote,
} from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { callApi } from '../../app/api.ts';
import { formatNumber } from '../../app/i18n.ts';
import { idOf } from '../../app/pathId.ts';
import { useClientState } from '../../app/state.ts';
import { BookBadge, useCurrentBook } from '../../shell/BookBadge.tsx';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty } from '../../ui/PageState.tsx';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { type Fact, Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import {
  Closed,
  DemoDisabled,
  ProductFacts,
  Realised,
  Refusal,
  RiskFacts,
  SmartPage,
  StateWord,
  useFeeText,
  useSmartFormat,
} from './parts.tsx';
import { smartQueries } from './queries.ts';

const EquityChart = lazy(() => import('./EquityChart.tsx'));

/** The strategy in plain words, from its documentation texts and its own settings. */
function Strategy({ product }: { product: SmartProduct }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const s = product.strategy;
  const values: Record<string, string> = { bar: f.count(s.barMinutes) };
  for (const [name, value] of Object.entries(s.parameters)) values[name] = f.count(value);
  return (
    <section
      className="card product-card smart-strategy"
      aria-labelledby="smart-strategy-title"
      data-testid="smart-strategy"
    >
      <h2 id="smart-strategy-title">{t('smart.product.strategy', { name: t(`${s.docKey}.name`) })}</h2>
      <p>{t(`${s.docKey}.entry`, values)}</p>
      <p>{t(`${s.docKey}.exit`, values)}</p>
      <p className="small muted">{t(`${s.docKey}.idea`)}</p>
      <p className="small">
        {t('smart.product.howItTrades', { instruments: product.instruments.join(', ') })}
      </p>
      <h3>{t('smart.risk.title')}</h3>
      <RiskFacts risk={s.risk} testId="risk-limits" />
      <p className="small muted">{t('smart.risk.note')}</p>
    </section>
  );
}

/** The past year's backtest: its equity curve and figures, labelled as past. */
function Backtest({ backtest, asset }: { backtest: SmartBacktest | null; asset: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  if (backtest === null)
    return (
      <section
        className="card product-card smart-backtest"
        aria-labelledby="smart-backtest-title"
        data-testid="smart-backtest"
      >
        <h2 id="smart-backtest-title">{t('smart.backtest.title')}</h2>
        <Empty text={t('smart.backtest.none')} />
      </section>
    );
  const decimal = (value: string | null) =>
    value === null
      ? t('smart.backtest.na')
      : formatNumber(f.language, Number(value), { maximumFractionDigits: 2 });
  const rows: [string, string, ReactNode][] = [
    ['totalReturn', backtest.totalReturn, f.signedPercent(backtest.totalReturn)],
    ['annualisedReturn', backtest.annualisedReturn, f.signedPercent(backtest.annualisedReturn)],
    ['maxDrawdown', backtest.maxDrawdown, f.percent(backtest.maxDrawdown)],
    ['sharpe', backtest.sharpe ?? '', decimal(backtest.sharpe)],
    [
      'winRate',
      backtest.winRate ?? '',
      backtest.winRate === null ? t('smart.backtest.na') : f.percent(backtest.winRate),
    ],
    ['profitFactor', backtest.profitFactor ?? '', decimal(backtest.profitFactor)],
    ['trades', String(backtest.trades), f.count(backtest.trades)],
    ['fees', backtest.fees, f.money(backtest.fees, asset)],
    ['marketChange', backtest.marketChange, f.signedPercent(backtest.marketChange)],
    ['finalEquity', backtest.finalEquity, f.money(backtest.finalEquity, asset)],
  ];
  const toFact = ([name, value, shown]: (typeof rows)[number]) => ({
    name,
    value,
    shown,
    label: t(`smart.backtest.${name}`),
  });
  const label = t('smart.backtest.chart', {
    from: f.day(backtest.from),
    to: f.day(backtest.to),
    start: f.money(backtest.amount, asset),
    end: f.money(backtest.finalEquity, asset),
  });
  return (
    <section
      className="card product-card smart-backtest"
      aria-labelledby="smart-backtest-title"
      data-testid="smart-backtest"
    >
      <h2 id="smart-backtest-title">{t('smart.backtest.title')}</h2>
      <p className="small">
        {t('smart.backtest.period', {
          from: f.day(backtest.from),
          to: f.day(backtest.to),
          amount: f.money(backtest.amount, asset),
          instruments: backtest.instruments.join(', '),
        })}
      </p>
      <Suspense fallback={<div className="smart-chart" aria-hidden="true" />}>
        <EquityChart points={backtest.equity} label={label} />
      </Suspense>
      <Facts facts={rows.map(toFact)} testId="backtest-figures" className="smart-figures" />
      {backtest.stoppedByDrawdown ? <p className="notice">{t('smart.backtest.stopped')}</p> : null}
      <p className="small muted">{t('smart.backtest.note')}</p>
    </section>
  );
}

/** The live record: every plan of the product with its realised yield and period, and all together. */
function LiveRecord({ live, asset }: { live: SmartLiveRecord; asset: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (
    <section
      className="card product-card smart-live"
      aria-labelledby="smart-live-title"
      data-testid="smart-live"
    >
      <h2 id="smart-live-title">{t('smart.live.title')}</h2>
      <p className="small">
        {t('smart.live.counts', { plans: f.count(live.plans), running: f.count(live.running) })}
      </p>
      <Realised realised={live.realised} />
      {live.items.length === 0 ? null : (
        <ScrollTable
          label={t('smart.live.caption')}
          head={[
            { text: t('smart.live.plan') },
            { text: t('smart.fact.amount'), num: true },
            { text: t('smart.fact.timeframe') },
            { text: t('smart.fact.state') },
            { text: t('smart.live.daily'), num: true },
            { text: t('smart.live.period') },
          ]}
        >
          {live.items.map((item) => (
            <tr key={item.planId}>
              <td>{f.count(item.planId)}</td>
              <td className="num">{f.money(item.amount, asset)}</td>
              <td>{f.days(item.timeframeDays)}</td>
              <td>
                <StateWord state={item.state} />
              </td>
              <td className="num">{f.signedPercent(item.realised.dailyYield)}</td>
              <td>
                {t('smart.live.over', {
                  days: f.days(item.realised.days),
                  return: f.signedPercent(item.realised.periodReturn),
                })}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

function useQuoteFigures(quote: SmartQuote): Fact[] {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const feeText = useFeeText();
  return [
    {
      name: 'amount',
      label: t('smart.fact.amount'),
      value: quote.amount,
      shown: f.exact(quote.amount, quote.asset),
    },
    {
      name: 'timeframe',
      label: t('smart.fact.timeframe'),
      value: String(quote.timeframeDays),
      shown: f.days(quote.timeframeDays),
    },
    {
      name: 'fee',
      label: t('smart.fact.fee'),
      value: quote.feeShare,
      shown: feeText(quote.feeShare),
    },
    {
      name: 'tradingFee',
      label: t('smart.fact.tradingFee'),
      value: quote.tradingFeeRate,
      shown: t('smart.cost.tradingFee', { rate: f.percent(quote.tradingFeeRate) }),
    },
    {
      name: 'spread',
      label: t('smart.fact.spread'),
      value: quote.spreadRate,
      shown: t('smart.cost.spread', { rate: f.percent(quote.spreadRate) }),
    },
    {
      name: 'startTime',
      label: t('smart.fact.startTime'),
      value: quote.startTime,
      shown: f.date(quote.startTime),
    },
    { name: 'endTime', label: t('smart.fact.endTime'), value: quote.endTime, shown: f.date(quote.endTime) },
    {
      name: 'firstIncomeTime',
      label: t('smart.fact.firstIncome'),
      value: quote.firstIncomeTime,
      shown: f.date(quote.firstIncomeTime),
    },
    {
      name: 'backtestMaxDrawdown',
      label: t('smart.quote.worstDrawdown'),
      value: quote.backtestMaxDrawdown ?? '',
      shown:
        quote.backtestMaxDrawdown === null ? t('smart.backtest.na') : f.percent(quote.backtestMaxDrawdown),
    },
    {
      name: 'backtestReturn',
      label: t('smart.quote.backtestReturn'),
      value: quote.backtestReturn ?? '',
      shown: quote.backtestReturn === null ? t('smart.backtest.na') : f.signedPercent(quote.backtestReturn),
    },
    {
      name: 'available',
      label: t('smart.quote.available'),
      value: quote.available,
      shown: f.exact(quote.available, quote.asset),
    },
  ];
}

function QuoteFigures({ quote, testId }: { quote: SmartQuote; testId: string }) {
  return <Facts facts={useQuoteFigures(quote)} testId={testId} quoteId={quote.quoteId} />;
}

/**
 * The confirm step: the quote's figures and risk limits (kept here while the customer reads them),
 * then buySmart with exactly that quote and one request id. A quote that ran out (10032) is renewed
 * in place, and the customer confirms the figures shown; nothing is bought until they do.
 */
function ConfirmPlan({
  product,
  first,
  onClose,
}: {
  product: SmartProduct;
  first: SmartQuote;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dialog = useModal();
  const { quote, renewed, busy, failure, submit } = useQuoteCommit({
    first,
    commit: (q, requestId) => callApi('buySmart', { body: { quoteId: q.quoteId, requestId } }),
    renew: (q) =>
      callApi('smartQuote', {
        body: { productId: product.id, amount: q.amount, timeframeDays: q.timeframeDays },
      }),
    onDone: (plan) => {
      void queryClient.invalidateQueries({ queryKey: smartQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(t('smart.buy.done', { amount: f.exact(plan.amount, plan.asset), name: plan.productName }));
      navigate(`/trading/plans/${plan.id}`);
    },
    renewedText: t('smart.buy.renewed'),
  });
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('smart.buy.confirmTitle')}
      label={t('smart.quote.title')}
      testId="smart-confirm"
      className="smart-dialog"
      onClose={onClose}
      onConfirm={() => void submit()}
      renewed={renewed && t('smart.buy.renewed')}
      failure={failure ? <Refusal error={failure} product={product} /> : null}
      cancel={t('smart.buy.cancel')}
      confirm={
        busy
          ? t('smart.buy.creating')
          : t('smart.buy.confirm', { amount: f.exact(quote.amount, quote.asset) })
      }
      disabled={busy}
    >
      <p className="smart-confirm-name">
        {quote.productName} · {t(`smart.strategy.${quote.strategy}.name`)} ·{' '}
        <bdi>{quote.instruments.join(', ')}</bdi>
      </p>
      <QuoteFigures quote={quote} testId="confirm-figures" />
      <h3>{t('smart.risk.title')}</h3>
      <RiskFacts risk={quote.risk} testId="confirm-risk" />
      <p className="small">{t('smart.buy.what', { drawdown: f.percent(quote.risk.drawdownStop) })}</p>
      <p className="small muted">{t('smart.buy.past')}</p>
    </QuoteConfirm>
  );
}

/** Create a plan: amount and timeframe, their live quote (the figures buySmart applies), then the confirm step. */
function CreatePlan({ product, userId }: { product: SmartProduct; userId: number }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const book = useCurrentBook();
  const [typed, setTyped] = useState('');
  const [timeframe, setTimeframe] = useState<number>(product.timeframes[0] ?? 1);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<SmartQuote | null>(null);
  const check = checkAmount(typed, product.asset, { min: product.minAmount, max: product.maxAmount });
  const limits = {
    minimum: f.exact(product.minAmount, product.asset),
    maximum: f.exact(product.maxAmount, product.asset),
  };
  const amountError = amountMessage(check, {
    required: tried ? t('smart.amount.required') : undefined,
    invalid: t('smart.amount.invalid', { asset: product.asset }),
    range: t('smart.refusal.amountRange', limits),
  });
  const quotable = typed.trim() !== '' && amountError === undefined ? check.amount : '';
  const settled = useSettled(quotable);
  const quote = useQuery({
    ...smartQueries.quote(userId, book, product.id, settled, timeframe),
    enabled: settled !== '' && settled === quotable,
  });
  const current =
    quote.data && settled === quotable && quote.data.timeframeDays === timeframe ? quote.data : undefined;
  const review = () => {
    setTried(true);
    if (amountError !== undefined || quotable === '' || !current) return;
    setConfirming(current);
  };
  const quoting = quotable !== '' && !current && !quote.isError;
  const legendId = useId();
  return (
    <section className="card smart-create" aria-labelledby="smart-create-title" data-testid="smart-create">
      <div className="product-card-head">
        <h2 id="smart-create-title">{t('smart.buy.title')}</h2>
        <BookBadge />
      </div>
      <form
        className="product-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          review();
        }}
      >
        <AmountField
          label={t('smart.amount.label', { asset: product.asset })}
          value={typed}
          onChange={setTyped}
          hint={[t('smart.range', limits)]}
          error={amountError}
        />
        <fieldset className="smart-timeframes" aria-labelledby={legendId}>
          <legend id={legendId}>{t('smart.fact.timeframe')}</legend>
          {product.timeframes.map((days) => (
            <label key={days} className="smart-option">
              <input
                type="radio"
                name="timeframe"
                value={days}
                checked={timeframe === days}
                onChange={() => setTimeframe(days)}
              />
              <span>{f.days(days)}</span>
            </label>
          ))}
        </fieldset>
        <LiveQuote
          className="smart-quote"
          testId="smart-quote"
          title={t('smart.quote.title')}
          busy={quoting}
          idle={quotable === '' ? t('smart.quote.enterAmount') : null}
          refusal={
            quote.isError && settled === quotable ? <Refusal error={quote.error} product={product} /> : null
          }
          ready={current !== undefined}
        >
          {current ? <QuoteFigures quote={current} testId="quote-figures" /> : null}
        </LiveQuote>
        <button type="submit" className="button primary large block" data-testid="smart-review">
          {t('smart.buy.review')}
        </button>
      </form>
      {confirming ? (
        <ConfirmPlan product={product} first={confirming} onClose={() => setConfirming(null)} />
      ) : null}
    </section>
  );
}

/** The product's page: the strategy in plain words with its risk limits, the backtest beside the live record, then create a plan. */
function ProductView({
  product,
  backtest,
  live,
}: {
  product: SmartProduct;
  backtest: SmartBacktest | null;
  live: SmartLiveRecord;
}) {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.isLogin && s.virtual === 1);
  const open = product.enabled && !product.soldOut;
  return (
    <div className="product-stack smart-detail" data-product={product.id}>
      <section className="card product-card smart-summary" aria-labelledby="smart-product-name">
        <h2 id="smart-product-name">{t('smart.product.terms')}</h2>
        <Realised realised={product.realised} />
        <ProductFacts product={product} />
        <Closed product={product} />
      </section>
      <Strategy product={product} />
      <div className="smart-records">
        <Backtest backtest={backtest} asset={product.asset} />
        <LiveRecord live={live} asset={product.asset} />
      </div>
      {open ? (
        <NeedsLogin>
          {demo ? (
            <DemoDisabled />
          ) : user ? (
            <CreatePlan key={`${user.id}`} product={product} userId={user.id} />
          ) : null}
        </NeedsLogin>
      ) : null}
      <p>
        <Link to="/trading">{t('smart.refusal.toProducts')}</Link>
      </p>
    </div>
  );
}

/** /trading/:productId: a product's page and the creation of a plan. */
export default function Product() {
  const { t } = useTranslation();
  const id = idOf(useParams().productId);
  const query = useQuery({ ...smartQueries.product(id ?? 0), enabled: id !== null });
  const missing = (
    <Missing
      name="smart"
      text={t('smart.refusal.product')}
      to="/trading"
      back={t('smart.refusal.toProducts')}
    />
  );
  return (
    <SmartPage title={query.data ? query.data.product.name : t('title.smartProduct')}>
      {id === null ? (
        missing
      ) : !query.isSuccess ? (
        <QueryState query={query} missing={missing} missingCode={Code.SMART_PRODUCT_INCORRECT} />
      ) : (
        <ProductView product={query.data.product} backtest={query.data.backtest} live={query.data.live} />
      )}
    </SmartPage>
  );
}
