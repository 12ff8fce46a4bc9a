import type { SwapPair, SwapQuote, SwapRecord } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty } from '../../ui/PageState.tsx';
import {
  AmountField,
  amountMessage,
  checkAmount,
  LiveQuote,
  ShortBalance,
  useSettled,
} from '../../ui/product/Amount.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import {
  Countdown,
  History,
  NewQuote,
  PairList,
  QuoteFigures,
  Refusal,
  SwapFacts,
  useQuoteClock,
  useSwapFormat,
} from './parts.tsx';
import { swapQueries } from './queries.ts';
import { swapTexts } from './texts.ts';
import './swap.css';
import { minorOf } from '../../app/money.ts';
import { ProductPage, QueryState } from '../../ui/product/ProductPage.tsx';
import { ConfirmSwap } from './Confirm.tsx';
import { type PairChoice, PairPickers, usePairChoice } from './Pickers.tsx';

/** A swap done: what was paid, received and charged, and where its ledger entry is. */
function Result({ record, onAgain }: { record: SwapRecord; onAgain: () => void }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      className="card product-card swap-result"
      aria-labelledby="swap-result-title"
      data-testid="swap-result"
      data-entry={record.entryId}
    >
      <h2 id="swap-result-title" ref={heading} tabIndex={-1}>
        {t('swap.result.title')}
      </h2>
      <SwapFacts
        figures={[
          {
            name: 'amount',
            label: t('swap.result.paid'),
            value: record.amount,
            shown: f.exact(record.amount, record.from),
          },
          {
            name: 'receive',
            label: t('swap.result.received'),
            value: record.receive,
            shown: f.exact(record.receive, record.to),
            strong: true,
          },
          {
            name: 'fee',
            label: t('swap.figure.fee', { rate: f.percent(record.feeRate) }),
            value: record.fee,
            shown: f.exact(record.fee, record.to),
          },
          {
            name: 'price',
            label: t('swap.figure.price'),
            value: record.price,
            shown: f.rate(record.price, record.from, record.to),
          },
        ]}
      />
      <div className="row">
        <Link className="button ghost" to="/profile/transactions" data-testid="swap-record-link">
          {t('swap.result.record')}
        </Link>
        <button type="button" className="button primary" onClick={onAgain}>
          {t('swap.result.again')}
        </button>
      </div>
    </section>
  );
}

/**
 * The amount typed against the pair's limits and the balance available: its error, whether the
 * balance is short of it, what can be quoted ('' while nothing can), and the most one can pay.
 */
function useSwapAmount(userId: number, typed: string, { from, pair }: Pick<PairChoice, 'from' | 'pair'>) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const book = useCurrentBook();
  const balances = useQuery(ledgerQueries.balances(userId, book));
  const available =
    balances.data?.balances.find((b) => b.asset === from)?.available ?? (balances.data ? '0' : undefined);
  const check = checkAmount(typed, from, { min: pair?.min, max: pair?.max });
  const high = pair ? minorOf(pair.max, from) : null;
  const availableMinor = available === undefined ? null : minorOf(available, from);
  const error = amountMessage(check, {
    invalid: t('swap.amount.invalid', { asset: from }),
    below: pair ? t('swap.refusal.belowMinimum', { minimum: f.exact(pair.min, from) }) : '',
    above: pair ? t('swap.refusal.aboveMaximum', { maximum: f.exact(pair.max, from) }) : '',
  });
  const short =
    error === undefined && check.minor !== null && availableMinor !== null && check.minor > availableMinor;
  const quotable =
    typed.trim() !== '' && error === undefined && !short && pair?.available ? check.amount : '';
  // The most one can pay: the available balance, within the pair's maximum.
  const max =
    availableMinor !== null && high !== null && pair
      ? availableMinor < high
        ? available
        : pair.max
      : undefined;
  return { available, error, short, quotable, max };
}

/**
 * The quote of what can be quoted, asked for once it rests; `current` is the quote of exactly the
 * pair and amount shown, counted down (its expiry said unless `say` is false).
 */
function useSwapQuote(
  userId: number,
  { from, to }: Pick<PairChoice, 'from' | 'to'>,
  quotable: string,
  say: boolean,
) {
  const book = useCurrentBook();
  const settled = useSettled(quotable);
  const query = useQuery({
    ...swapQueries.quote(userId, book, from, to, settled),
    enabled: settled !== '' && settled === quotable,
  });
  const current =
    query.data && settled === quotable && query.data.from === from && query.data.to === to
      ? query.data
      : undefined;
  const clock = useQuoteClock(current?.expiresAt, say);
  const quoting = quotable !== '' && (settled !== quotable || query.isFetching);
  const refused = query.isError && settled === quotable ? query.error : null;
  return { query, current, clock, quoting, refused };
}

/** The amount to pay, with what is available, the pair's limits and the most one can pay. */
function SwapAmount({
  choice,
  amount,
  typed,
  onChange,
}: {
  choice: PairChoice;
  amount: ReturnType<typeof useSwapAmount>;
  typed: string;
  onChange: (typed: string) => void;
}) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const { from, pair } = choice;
  const { available, max } = amount;
  return (
    <AmountField
      label={t('swap.amount.label', { asset: from })}
      value={typed}
      onChange={onChange}
      hint={[
        available !== undefined && t('swap.amount.available', { amount: f.exact(available, from) }),
        pair &&
          t('swap.amount.limits', { minimum: f.exact(pair.min, from), maximum: f.exact(pair.max, from) }),
      ]}
      error={amount.error}
      max={
        max === undefined
          ? undefined
          : {
              value: max,
              asset: from,
              text: t('swap.amount.max'),
              label: t('swap.amount.maxLabel', { amount: f.exact(max, from) }),
              testId: 'swap-max',
            }
      }
    />
  );
}

/**
 * The live quote: why there is none (the pair closed, nothing typed: at `statusId`), its refusal,
 * or its figures with the time left and, once it ran out, the way to a new one.
 */
function SwapLiveQuote({
  choice,
  quotable,
  quote,
  statusId,
}: {
  choice: PairChoice;
  quotable: string;
  quote: ReturnType<typeof useSwapQuote>;
  statusId: string;
}) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const { pair, from, to } = choice;
  const { current, clock } = quote;
  return (
    <LiveQuote
      className="swap-live-quote"
      testId="swap-quote"
      title={t('swap.quote.title')}
      busy={quote.quoting}
      idle={
        pair && !pair.available ? (
          <p className="notice" id={statusId}>
            {t('swap.refusal.unavailable')}
          </p>
        ) : quotable === '' ? (
          <p className="muted small" id={statusId}>
            {pair?.rate
              ? t('swap.quote.enterAmount', { rate: f.rate(pair.rate, from, to) })
              : t('swap.quote.enterAmountNoRate')}
          </p>
        ) : null
      }
      refusal={quote.refused ? <Refusal error={quote.refused} pair={pair} /> : null}
      ready={current !== undefined}
    >
      {current ? (
        <>
          <QuoteFigures quote={current} testId="quote-figures" />
          <Countdown left={clock.left} id={statusId} />
          {clock.expired ? (
            <NewQuote disabled={quote.query.isFetching} onClick={() => void quote.query.refetch()} />
          ) : null}
        </>
      ) : null}
    </LiveQuote>
  );
}

/** A swap done: the balances and records asked again, and what was paid and received said. */
function useAfterSwap() {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const queryClient = useQueryClient();
  return (record: SwapRecord) => {
    void queryClient.invalidateQueries({ queryKey: swapQueries.all });
    void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
    announce(
      t('swap.result.said', {
        paid: f.exact(record.amount, record.from),
        received: f.exact(record.receive, record.to),
      }),
    );
  };
}

/**
 * The swap: from and to (with a flip), the amount (with the most one can pay), the live quote with
 * every figure and its time left, then the confirm step. The quote is asked for when the pair or
 * the amount changes (after it rests); it is not renewed by itself: when it runs out the screen
 * says so and offers a new one.
 */
function SwapForm({ pairs, userId }: { pairs: SwapPair[]; userId: number }) {
  const { t } = useTranslation();
  const statusId = useId();
  const choice = usePairChoice(pairs);
  const [typed, setTyped] = useState('');
  const [confirming, setConfirming] = useState<SwapQuote | null>(null);
  const [result, setResult] = useState<SwapRecord | null>(null);
  const amount = useSwapAmount(userId, typed, choice);
  const quote = useSwapQuote(userId, choice, amount.quotable, confirming === null);
  const afterSwap = useAfterSwap();
  const deposit = useCurrentBook() === 'demo' ? null : t('swap.refusal.deposit');
  const done = (record: SwapRecord) => {
    setConfirming(null);
    setResult(record);
    setTyped('');
    afterSwap(record);
  };
  if (result) return <Result record={result} onAgain={() => setResult(null)} />;
  const live = quote.current && !quote.clock.expired;
  return (
    <section className="card swap-form-card" aria-labelledby="swap-form-title" data-testid="swap-form">
      <h2 id="swap-form-title">{t('swap.form.title')}</h2>
      <form
        className="swap-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (quote.current && !quote.clock.expired) setConfirming(quote.current);
        }}
      >
        <PairPickers choice={choice} />
        <SwapAmount choice={choice} amount={amount} typed={typed} onChange={setTyped} />
        {amount.short ? <ShortBalance text={t('swap.refusal.balance')} deposit={deposit} /> : null}
        <SwapLiveQuote choice={choice} quotable={amount.quotable} quote={quote} statusId={statusId} />
        <button
          type="submit"
          className="button primary large block"
          data-testid="swap-review"
          disabled={!live}
          aria-describedby={live ? undefined : statusId}
        >
          {t('swap.form.review')}
        </button>
      </form>
      {confirming ? (
        <ConfirmSwap
          first={confirming}
          pair={choice.pair}
          onClose={() => setConfirming(null)}
          onDone={done}
        />
      ) : null}
    </section>
  );
}

/** Logged out: the pairs and their rates are public; swapping needs a session. */
function SignInPrompt() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const login = `/pass/login?${new URLSearchParams({ return: pathname }).toString()}`;
  return (
    <section className="card swap-sign-in" aria-labelledby="swap-sign-in-title" data-testid="swap-sign-in">
      <h2 id="swap-sign-in-title">{t('swap.signIn.title')}</h2>
      <p>{t('swap.signIn.text')}</p>
      <div className="row">
        <LoginLinks login={login} />
      </div>
    </section>
  );
}

/** /swap: swap one asset for another at a quote from the market (spec §2; DESIGN §2 rule 3). */
export default function Swap() {
  // The swap texts before any of them is read: the first screen was drawn with them (prerender).
  use(swapTexts);
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  const user = useClientState((s) => s.userInfo);
  const pairs = useQuery(swapQueries.pairs());
  return (
    <ProductPage name="swap" texts={swapTexts} title={t('title.swap')} nav={null}>
      <p className="muted product-intro swap-intro">{t('swap.intro')}</p>
      {!pairs.isSuccess ? (
        <QueryState query={pairs} />
      ) : pairs.data.length === 0 ? (
        <Empty text={t('swap.pairs.empty')} />
      ) : (
        <div className="swap-layout">
          <div className="product-stack swap-main">
            {isLogin && user ? <SwapForm pairs={pairs.data} userId={user.id} /> : <SignInPrompt />}
            {isLogin && user ? <History userId={user.id} /> : null}
          </div>
          <PairList pairs={pairs.data} />
        </div>
      )}
    </ProductPage>
  );
}
