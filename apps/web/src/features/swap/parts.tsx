import {
  Code,
  LANGUAGE_TAGS,
  NETWORK_FAILURE,
  SWAP_QUOTE_SECONDS,
  type SwapAsset,
  type SwapPair,
  type SwapQuote,
  type SwapRecord,
  TIMED_OUT,
} from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useFigureFormat } from '../../app/figures.ts';
import { formatDate, formatDecimal } from '../../app/i18n.ts';
import { formatPercent } from '../../app/money.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty } from '../../ui/PageState.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { swapQueries } from './queries.ts';

/** The same decimal without the zeros its scale leaves ("90.500000" → "90.5"). */
const trimZeros = (decimal: string) =>
  decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;

/** Left-to-right isolate: a number and its asset stay together, in this order, inside Arabic text. */
const ltr = (text: string) => `\u2066${text}\u2069`;

/** The reader's formatters of swap figures. */
export function useSwapFormat() {
  const figures = useFigureFormat();
  const { language } = figures;
  return {
    ...figures,
    /**
     * "1 BTC = 65,000.12 USDT": a rate or price (units of `to` per unit of `from`), every digit the
     * server gave kept (trailing zeros dropped: the same number).
     */
    rate: (rate: string, from: SwapAsset, to: SwapAsset) =>
      ltr(`1 ${from} = ${formatDecimal(language, trimZeros(rate))} ${to}`),
    /** A live mid rate in a list: ten significant digits (the quote states every digit). */
    shortRate: (rate: string, to: SwapAsset) =>
      ltr(
        `${new Intl.NumberFormat(LANGUAGE_TAGS[language], { maximumSignificantDigits: 10 }).format(rate as unknown as number)} ${to}`,
      ),
    /** A limit in the reader's digits, every digit kept, trailing zeros dropped. */
    plain: (amount: string) => formatDecimal(language, trimZeros(amount)),
    percent: (ratio: string) => ltr(formatPercent(language, ratio, { minimumFractionDigits: 2 })),
    date: (value: string) =>
      formatDate(language, value, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
  };
}

/** A request id for one commit: a UUID without its dashes (8-64 of [A-Za-z0-9_-]). */
export function newSwapRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Milliseconds a quote can still be accepted, counted down from its `expiresAt` (epoch seconds),
 * never more than its lifetime (`seconds`: SWAP_QUOTE_SECONDS, or SWAP_HOLD_SECONDS for a held
 * quote; a clock behind the server's does not lengthen it). When it reaches zero the quote is
 * expired and it is said once to screen readers.
 */
export function useQuoteClock(
  expiresAt: number | undefined,
  /** Whether to say the expiry (false while a dialog over this screen says it). */
  say = true,
  seconds = SWAP_QUOTE_SECONDS,
): { left: number; expired: boolean } {
  const { t } = useTranslation();
  const leftAt = (now: number) =>
    expiresAt === undefined ? 0 : Math.max(0, Math.min(seconds * 1000, expiresAt * 1000 - now));
  const [left, setLeft] = useState(() => leftAt(Date.now()));
  const sayRef = useRef(say);
  sayRef.current = say;
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts with each quote (its expiry), not with the text function
  useEffect(() => {
    if (expiresAt === undefined) return;
    setLeft(leftAt(Date.now()));
    const timer = window.setInterval(() => {
      const next = leftAt(Date.now());
      setLeft(next);
      if (next === 0) {
        window.clearInterval(timer);
        if (sayRef.current) announce(t('swap.quote.expired'));
      }
    }, 200);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  return { left, expired: expiresAt !== undefined && left === 0 };
}

/**
 * How long a quote is valid: in words ("Valid for 7 more seconds", then "This quote has
 * expired") and as a bar that empties (hidden from screen readers, which read the words).
 */
export function Countdown({
  left,
  id,
  max = SWAP_QUOTE_SECONDS,
}: {
  left: number;
  id?: string;
  /** The quote's lifetime in seconds (the bar's full length). */
  max?: number;
}) {
  const { t } = useTranslation();
  const seconds = Math.ceil(left / 1000);
  return (
    <div className="swap-countdown" data-testid="quote-countdown" data-left={seconds}>
      <p id={id} className={seconds === 0 ? 'swap-expired' : undefined}>
        {seconds === 0 ? t('swap.quote.expired') : t('swap.quote.validFor', { count: seconds })}
      </p>
      <progress className="product-progress" max={max * 1000} value={left} aria-hidden="true" />
    </div>
  );
}

/** Ask for a new quote (the last one ran out). */
export function NewQuote({ disabled, onClick }: { disabled: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button ghost"
      data-testid="new-quote"
      disabled={disabled}
      onClick={onClick}
    >
      {t('swap.quote.renew')}
    </button>
  );
}

type Figure = { name: string; label: string; value: string; shown: ReactNode; strong?: boolean };

/**
 * A list of figures (`dl.swap-facts`, of a group when named), each named (`data-figure`) with its
 * exact value (`data-value`); a strong one (what is received) stands out.
 */
export function SwapFacts({ figures, group }: { figures: Figure[]; group?: string }) {
  return (
    <dl className="facts swap-facts" data-group={group}>
      {figures.map((figure) => (
        <div
          key={figure.name}
          data-figure={figure.name}
          data-value={figure.value}
          className={figure.strong ? 'swap-receive' : undefined}
        >
          <dt>{figure.label}</dt>
          <dd>{figure.shown}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A quote's figures in their groups: what is paid; the mid-market rate, the applied price and what
 * the spread costs; the gross, the fee with its rate and what is received.
 */
function useFigureGroups(quote: SwapQuote | SwapRecord): { name: string; figures: Figure[] }[] {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const exact = (name: string, label: string, value: string, asset: SwapAsset): Figure => ({
    name,
    label,
    value,
    shown: f.exact(value, asset),
  });
  const rate = (name: string, label: string, value: string): Figure => ({
    name,
    label,
    value,
    shown: f.rate(value, quote.from, quote.to),
  });
  return [
    { name: 'pay', figures: [exact('amount', t('swap.figure.pay'), quote.amount, quote.from)] },
    {
      name: 'price',
      figures: [
        rate('rate', t('swap.figure.rate'), quote.rate),
        rate('price', t('swap.figure.price'), quote.price),
        exact('spread', t('swap.figure.spread'), quote.spread, quote.to),
      ],
    },
    {
      name: 'fee',
      figures: [
        exact('gross', t('swap.figure.gross'), quote.gross, quote.to),
        exact('fee', t('swap.figure.fee', { rate: f.percent(quote.feeRate) }), quote.fee, quote.to),
        { ...exact('receive', t('swap.figure.receive'), quote.receive, quote.to), strong: true },
      ],
    },
  ];
}

/** A quote's figures exactly as the server gave them, in their groups, and what the fee is. */
export function QuoteFigures({ quote, testId }: { quote: SwapQuote | SwapRecord; testId: string }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const groups = useFigureGroups(quote);
  return (
    <div
      className="swap-figures"
      data-testid={testId}
      data-quote={'quoteId' in quote ? quote.quoteId : undefined}
    >
      {groups.map((group) => (
        <SwapFacts key={group.name} figures={group.figures} group={group.name} />
      ))}
      {'feeRate' in quote ? (
        <p className="small muted swap-explain">
          {t('swap.figure.explain', { rate: f.percent(quote.feeRate) })}
        </p>
      ) : null}
    </div>
  );
}

/** A held quote refused because the market moved against its figures (10032 `{reason: 'moved'}`). */
const movedAgainst = (error: ApiFailure) =>
  typeof error.data === 'object' &&
  error.data !== null &&
  (error.data as { reason?: unknown }).reason === 'moved';

/** What a refusal means, in the customer's words, with what they can do about it. */
export function Refusal({
  error,
  pair,
  action,
}: {
  error: unknown;
  pair: SwapPair | undefined;
  /** What to offer for an expired quote (10032): a new quote. */
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const demo = useCurrentBook() === 'demo';
  if (!(error instanceof ApiFailure))
    return (
      <div className="form-error product-offer swap-refusal" role="alert">
        <p>{t('state.error')}</p>
      </div>
    );
  let text = error.message;
  let next: ReactNode = null;
  switch (error.code) {
    case Code.PRICE_CHANGED:
      text = movedAgainst(error) ? t('swap.refusal.moved') : t('swap.refusal.expired');
      next = action ?? null;
      break;
    case Code.INSUFFICIENT_BALANCE:
      text = t('swap.refusal.balance');
      if (!demo) next = <Link to="/profile/deposit">{t('swap.refusal.deposit')}</Link>;
      break;
    case Code.NOT_AVAILABLE_FOR_TRADING:
      text = t('swap.refusal.unavailable');
      break;
    case Code.BELOW_MINIMUM:
      if (pair) text = t('swap.refusal.belowMinimum', { minimum: f.exact(pair.min, pair.from) });
      break;
    case Code.ABOVE_MAXIMUM:
      if (pair) text = t('swap.refusal.aboveMaximum', { maximum: f.exact(pair.max, pair.from) });
      break;
    // No answer: the app's words speak of orders; a swap may or may not have been done.
    case NETWORK_FAILURE:
    case TIMED_OUT:
      text = t('swap.refusal.network');
      break;
    default:
      break;
  }
  return (
    <div
      className="form-error product-offer swap-refusal"
      role="alert"
      data-code={error.code}
      data-testid="swap-refusal"
    >
      <p>{text}</p>
      {next ? <p>{next}</p> : null}
    </div>
  );
}

/** The pairs with their live mid-market rate, fee rate, limits and whether they can be swapped now. */
export function PairList({ pairs }: { pairs: SwapPair[] }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  return (
    <section className="card swap-pairs" aria-labelledby="swap-pairs-title" data-testid="swap-pairs">
      <h2 id="swap-pairs-title">{t('swap.pairs.title')}</h2>
      <p className="small muted">{t('swap.pairs.intro')}</p>
      {pairs.length === 0 ? (
        <Empty text={t('swap.pairs.empty')} />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls, and the keyboard reaches it
        <section className="table-scroll" aria-labelledby="swap-pairs-title" tabIndex={0}>
          <table className="data-table swap-pair-table">
            <caption className="visually-hidden">{t('swap.pairs.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('swap.pairs.pair')}</th>
                <th scope="col" className="num">
                  {t('swap.pairs.rateAndFee')}
                </th>
              </tr>
            </thead>
            <tbody>
              {pairs.map((pair) => (
                <tr
                  key={`${pair.from}-${pair.to}`}
                  data-pair={`${pair.from}-${pair.to}`}
                  data-available={pair.available}
                >
                  <th scope="row">
                    <span className="swap-pair-name">{ltr(`${pair.from} → ${pair.to}`)}</span>
                    <span className="swap-pair-limits small muted" data-figure="limits">
                      {t('swap.pairs.perSwap', {
                        range: ltr(`${f.plain(pair.min)} – ${f.plain(pair.max)} ${pair.from}`),
                      })}
                    </span>
                    {pair.available ? null : (
                      <span className="swap-state" data-available="false">
                        {t('swap.pairs.closed')}
                      </span>
                    )}
                  </th>
                  <td className="num">
                    <span className="swap-pair-rate" data-figure="rate" data-value={pair.rate ?? ''}>
                      {pair.rate === null ? t('swap.pairs.noRate') : f.shortRate(pair.rate, pair.to)}
                    </span>
                    <span
                      className="swap-pair-fee small muted"
                      data-figure="feeRate"
                      data-value={pair.feeRate}
                    >
                      {t('swap.pairs.fee', { rate: f.percent(pair.feeRate) })}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

/** My recent swaps in the current book, newest first, 50 at a time. */
export function History({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const book = useCurrentBook();
  const query = useInfiniteQuery(swapQueries.history(userId, book));
  const rows = query.data?.pages.flat() ?? [];
  return (
    <section className="card swap-history" aria-labelledby="swap-history-title" data-testid="swap-history">
      <h2 id="swap-history-title">{t('swap.history.title')}</h2>
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : rows.length === 0 ? (
        <Empty text={t('swap.history.empty')} />
      ) : (
        <>
          <ul className="swap-history-list">
            {rows.map((row) => (
              <li key={row.id} className="swap-history-item" data-swap={row.id} data-entry={row.entryId}>
                <p className="swap-history-line">
                  <span>
                    {t('swap.history.line', {
                      paid: f.exact(row.amount, row.from),
                      received: f.exact(row.receive, row.to),
                    })}
                  </span>
                  <time className="small muted" dateTime={row.createdAt}>
                    {f.date(row.createdAt)}
                  </time>
                </p>
                <p className="small muted">
                  {t('swap.history.detail', {
                    price: f.rate(row.price, row.from, row.to),
                    fee: f.exact(row.fee, row.to),
                    rate: f.percent(row.feeRate),
                  })}
                </p>
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <button
              type="button"
              className="button ghost"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {t('swap.history.more')}
            </button>
          ) : null}
          <p className="small">
            <Link to="/profile/transactions">{t('swap.result.record')}</Link>
          </p>
        </>
      )}
    </section>
  );
}
