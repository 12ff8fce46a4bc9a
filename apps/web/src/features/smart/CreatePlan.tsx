import type { SmartProduct, SmartQuote } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { BookBadge, useCurrentBook } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { Choice } from '../../ui/product/Choice.tsx';
import { exactFact, type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { Refusal, RiskFacts, useFeeText, useSmartFormat } from './parts.tsx';
import { smartQueries } from './queries.ts';

function useQuoteFigures(quote: SmartQuote): Fact[] {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const feeText = useFeeText();
  return [
    exactFact(f, 'amount', t('smart.fact.amount'), quote.amount, quote.asset),
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
      name: 'marketOpen',
      label: t('smart.fact.marketOpen'),
      value: String(quote.marketOpenMinutes),
      shown: t('smart.quote.openOf', {
        open: f.hoursMinutes(quote.marketOpenMinutes),
        window: f.hoursMinutes(quote.timeframeDays * 1440),
      }),
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
    exactFact(f, 'available', t('smart.quote.available'), quote.available, quote.asset),
  ];
}

function QuoteFigures({ quote, testId }: { quote: SmartQuote; testId: string }) {
  return <Facts facts={useQuoteFigures(quote)} testId={testId} quoteId={quote.quoteId} />;
}

/** Said before the figures when the plan's market is closed for part of its window (a weekend). */
function PartlyClosed({ quote }: { quote: SmartQuote }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const window = quote.timeframeDays * 1440;
  if (quote.marketOpenMinutes >= window) return null;
  return (
    <p className="product-caution" role="note" data-testid="partly-closed">
      {t('smart.quote.partlyClosed', {
        instrument: quote.instruments.join(', '),
        open: f.hoursMinutes(quote.marketOpenMinutes),
        window: f.hoursMinutes(window),
      })}
    </p>
  );
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
    // Its life on the server's clock, as swap counts it: a browser clock off the server's (a
    // sandbox's clock runs ahead) neither shortens nor stretches it.
    expiresAt: (q) => Math.min(q.expiresAt, Date.now() / 1000 + (q.expiresAt - q.quoteTime)),
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
      <p className="product-confirm-name">
        {quote.productName} · {t(`smart.strategy.${quote.strategy}.name`)} ·{' '}
        <bdi>{quote.instruments.join(', ')}</bdi>
      </p>
      <PartlyClosed quote={quote} />
      <QuoteFigures quote={quote} testId="confirm-figures" />
      <h3>{t('smart.risk.title')}</h3>
      <RiskFacts risk={quote.risk} testId="confirm-risk" />
      <p className="small">{t('smart.buy.what', { drawdown: f.percent(quote.risk.drawdownStop) })}</p>
      <p className="small muted">{t('smart.buy.past')}</p>
    </QuoteConfirm>
  );
}

/**
 * The quote of the amount typed and the timeframe chosen, asked for once the amount rests and is
 * in the product's range: `quotable` is what is asked, `current` the quote of exactly that.
 */
function usePlanQuote(
  userId: number,
  product: SmartProduct,
  typed: string,
  timeframe: number,
  tried: boolean,
) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const book = useCurrentBook();
  const check = checkAmount(typed, product.asset, { min: product.minAmount, max: product.maxAmount });
  const amountError = amountMessage(check, {
    required: tried ? t('smart.amount.required') : undefined,
    invalid: t('smart.amount.invalid', { asset: product.asset }),
    range: t('smart.refusal.amountRange', {
      minimum: f.exact(product.minAmount, product.asset),
      maximum: f.exact(product.maxAmount, product.asset),
    }),
  });
  const quotable = typed.trim() !== '' && amountError === undefined ? check.amount : '';
  const settled = useSettled(quotable);
  const quote = useQuery({
    ...smartQueries.quote(userId, book, product.id, settled, timeframe),
    enabled: settled !== '' && settled === quotable,
  });
  const current =
    quote.data && settled === quotable && quote.data.timeframeDays === timeframe ? quote.data : undefined;
  return {
    amountError,
    quotable,
    current,
    quoting: quotable !== '' && !current && !quote.isError,
    refused: quote.isError && settled === quotable ? quote.error : null,
  };
}

/** The product's timeframes as radio choices, in days. */
function TimeframeChoice({
  timeframes,
  value,
  onChange,
}: {
  timeframes: number[];
  value: number;
  onChange: (days: number) => void;
}) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (
    <Choice
      legend={t('smart.fact.timeframe')}
      name="timeframe"
      value={value}
      options={timeframes.map((days) => ({ value: days, label: f.days(days) }))}
      onChange={onChange}
      pills
      className="smart-timeframes"
      optionClassName="smart-option"
    />
  );
}

/** Create a plan: amount and timeframe, their live quote (the figures buySmart applies), then the confirm step. */
export function CreatePlan({ product, userId }: { product: SmartProduct; userId: number }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const [typed, setTyped] = useState('');
  const [timeframe, setTimeframe] = useState<number>(product.timeframes[0] ?? 1);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<SmartQuote | null>(null);
  const { amountError, quotable, current, quoting, refused } = usePlanQuote(
    userId,
    product,
    typed,
    timeframe,
    tried,
  );
  const review = () => {
    setTried(true);
    if (amountError !== undefined || quotable === '' || !current) return;
    setConfirming(current);
  };
  const range = t('smart.range', {
    minimum: f.exact(product.minAmount, product.asset),
    maximum: f.exact(product.maxAmount, product.asset),
  });
  return (
    <section
      className="card product-card smart-create"
      aria-labelledby="smart-create-title"
      data-testid="smart-create"
    >
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
          hint={[range]}
          error={amountError}
        />
        <TimeframeChoice timeframes={product.timeframes} value={timeframe} onChange={setTimeframe} />
        <LiveQuote
          className="smart-quote"
          testId="smart-quote"
          title={t('smart.quote.title')}
          busy={quoting}
          idle={quotable === '' ? t('smart.quote.enterAmount') : null}
          refusal={refused ? <Refusal error={refused} product={product} /> : null}
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
