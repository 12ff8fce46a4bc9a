import { Code, type SwapAsset, type SwapPair, type SwapQuote, type SwapRecord } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty } from '../../ui/PageState.tsx';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import {
  Countdown,
  History,
  newSwapRequestId,
  PairList,
  QuoteFigures,
  Refusal,
  useQuoteClock,
  useSwapFormat,
} from './parts.tsx';
import { swapQueries } from './queries.ts';
import { swapTexts } from './texts.ts';
import './swap.css';
import { minorOf } from '../../app/money.ts';
import { ProductPage, QueryState } from '../../ui/product/ProductPage.tsx';

const unique = <T,>(values: T[]): T[] => [...new Set(values)];

/**
 * The confirm step: exactly the figures of one quote (kept here while the customer reads them),
 * the book, the time left, and the commit of that quote under one request id. An expired quote
 * (counted down here, or refused by the server with 10032) is never sent: the customer asks for a
 * new one, reads it, and confirms that.
 */
function ConfirmSwap({
  first,
  pair,
  onClose,
  onDone,
}: {
  first: SwapQuote;
  pair: SwapPair | undefined;
  onClose: () => void;
  onDone: (record: SwapRecord) => void;
}) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const dialog = useModal();
  const expiredId = useId();
  const { quote, renewed, busy, failure, submit, renew } = useQuoteCommit({
    first,
    // One id per attempt at this quote: a retry after a lost answer swaps once; a new quote is a new attempt.
    newId: newSwapRequestId,
    commit: (q, requestId) => callApi('instantExchange', { body: { quoteId: q.quoteId, requestId } }),
    renew: (q) => callApi('swapQuote', { body: { from: q.from, to: q.to, amount: q.amount } }),
    autoRenew: false,
    onDone: (done) => {
      dialog.current?.close();
      onDone(done);
    },
    renewedText: t('swap.confirm.renewed'),
  });
  const clock = useQuoteClock(quote.expiresAt);
  const refusedAsExpired = failure instanceof ApiFailure && failure.code === Code.PRICE_CHANGED;
  const expired = clock.expired || refusedAsExpired;
  const newQuote = (
    <button
      type="button"
      className="button ghost"
      data-testid="new-quote"
      disabled={busy}
      onClick={() => void renew()}
    >
      {t('swap.quote.renew')}
    </button>
  );
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('swap.confirm.title')}
      label={t('swap.quote.title')}
      testId="swap-confirm"
      className="swap-dialog"
      onClose={onClose}
      onConfirm={() => {
        if (!expired) void submit();
      }}
      countdown={<Countdown left={refusedAsExpired ? 0 : clock.left} id={expiredId} />}
      renewed={renewed && !expired && t('swap.confirm.renewed')}
      failure={
        failure ? (
          <Refusal error={failure} pair={pair} action={newQuote} />
        ) : clock.expired ? (
          <div className="swap-expired-offer" data-testid="quote-expired">
            {newQuote}
          </div>
        ) : null
      }
      cancel={t('swap.confirm.cancel')}
      confirm={
        busy
          ? t('swap.confirm.busy')
          : t('swap.confirm.confirm', {
              paid: f.exact(quote.amount, quote.from),
              received: f.exact(quote.receive, quote.to),
            })
      }
      disabled={busy || expired}
      why={expired ? expiredId : undefined}
    >
      <QuoteFigures quote={quote} testId="confirm-figures" />
    </QuoteConfirm>
  );
}

/** A swap done: what was paid, received and charged, and where its ledger entry is. */
function Result({ record, onAgain }: { record: SwapRecord; onAgain: () => void }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      className="card swap-result"
      aria-labelledby="swap-result-title"
      data-testid="swap-result"
      data-entry={record.entryId}
    >
      <h2 id="swap-result-title" ref={heading} tabIndex={-1}>
        {t('swap.result.title')}
      </h2>
      <dl className="swap-facts">
        <div data-figure="amount" data-value={record.amount}>
          <dt>{t('swap.result.paid')}</dt>
          <dd>{f.exact(record.amount, record.from)}</dd>
        </div>
        <div data-figure="receive" data-value={record.receive} className="swap-receive">
          <dt>{t('swap.result.received')}</dt>
          <dd>{f.exact(record.receive, record.to)}</dd>
        </div>
        <div data-figure="fee" data-value={record.fee}>
          <dt>{t('swap.figure.fee', { rate: f.percent(record.feeRate) })}</dt>
          <dd>{f.exact(record.fee, record.to)}</dd>
        </div>
        <div data-figure="price" data-value={record.price}>
          <dt>{t('swap.figure.price')}</dt>
          <dd>{f.rate(record.price, record.from, record.to)}</dd>
        </div>
      </dl>
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

/** A select of assets, labelled. */
function AssetPicker({
  label,
  name,
  value,
  assets,
  onChange,
}: {
  label: string;
  name: string;
  value: SwapAsset;
  assets: SwapAsset[];
  onChange: (asset: SwapAsset) => void;
}) {
  const id = useId();
  return (
    <div className="field swap-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="control"
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value as SwapAsset)}
      >
        {assets.map((asset) => (
          <option key={asset} value={asset}>
            {asset}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The swap: from and to (with a flip), the amount (with the most one can pay), the live quote with
 * every figure and its time left, then the confirm step. The quote is asked for when the pair or
 * the amount changes (after it rests); it is not renewed by itself: when it runs out the screen
 * says so and offers a new one.
 */
function SwapForm({ pairs, userId }: { pairs: SwapPair[]; userId: number }) {
  const { t } = useTranslation();
  const f = useSwapFormat();
  const book = useCurrentBook();
  const queryClient = useQueryClient();
  const statusId = useId();
  const first = pairs.find((p) => p.available) ?? pairs[0];
  const [from, setFrom] = useState<SwapAsset>(first?.from ?? 'USDT');
  const [to, setTo] = useState<SwapAsset>(first?.to ?? 'BTC');
  const [typed, setTyped] = useState('');
  const [confirming, setConfirming] = useState<SwapQuote | null>(null);
  const [result, setResult] = useState<SwapRecord | null>(null);
  const pair = pairs.find((p) => p.from === from && p.to === to);
  const reverse = pairs.find((p) => p.from === to && p.to === from);
  const fromAssets = unique(pairs.map((p) => p.from));
  const toAssets = pairs.filter((p) => p.from === from).map((p) => p.to);
  const balances = useQuery(ledgerQueries.balances(userId, book));
  const available =
    balances.data?.balances.find((b) => b.asset === from)?.available ?? (balances.data ? '0' : undefined);

  const check = checkAmount(typed, from, { min: pair?.min, max: pair?.max });
  const { amount, minor } = check;
  const high = pair ? minorOf(pair.max, from) : null;
  const availableMinor = available === undefined ? null : minorOf(available, from);
  const amountError = amountMessage(check, {
    invalid: t('swap.amount.invalid', { asset: from }),
    below: pair ? t('swap.refusal.belowMinimum', { minimum: f.exact(pair.min, from) }) : '',
    above: pair ? t('swap.refusal.aboveMaximum', { maximum: f.exact(pair.max, from) }) : '',
  });
  const short =
    amountError === undefined && minor !== null && availableMinor !== null && minor > availableMinor;
  const quotable =
    typed.trim() !== '' && amountError === undefined && !short && pair?.available ? amount : '';
  const settled = useSettled(quotable);
  const quote = useQuery({
    ...swapQueries.quote(userId, book, from, to, settled),
    enabled: settled !== '' && settled === quotable,
  });
  const current =
    quote.data && settled === quotable && quote.data.from === from && quote.data.to === to
      ? quote.data
      : undefined;
  const clock = useQuoteClock(current?.expiresAt, confirming === null);
  const quoting = quotable !== '' && (settled !== quotable || quote.isFetching);

  // The most one can pay: the available balance, within the pair's maximum.
  const max =
    availableMinor !== null && high !== null && pair
      ? availableMinor < high
        ? available
        : pair.max
      : undefined;
  const pick = (nextFrom: SwapAsset, nextTo: SwapAsset) => {
    setFrom(nextFrom);
    const fits = pairs.some((p) => p.from === nextFrom && p.to === nextTo);
    setTo(fits ? nextTo : (pairs.find((p) => p.from === nextFrom)?.to ?? nextTo));
  };
  const done = (record: SwapRecord) => {
    setConfirming(null);
    setResult(record);
    setTyped('');
    void queryClient.invalidateQueries({ queryKey: swapQueries.all });
    void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
    announce(
      t('swap.result.said', {
        paid: f.exact(record.amount, record.from),
        received: f.exact(record.receive, record.to),
      }),
    );
  };
  if (result) return <Result record={result} onAgain={() => setResult(null)} />;
  const live = current && !clock.expired;
  return (
    <section className="card swap-form-card" aria-labelledby="swap-form-title" data-testid="swap-form">
      <h2 id="swap-form-title">{t('swap.form.title')}</h2>
      <form
        className="swap-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (current && !clock.expired) setConfirming(current);
        }}
      >
        <div className="swap-pickers">
          <AssetPicker
            label={t('swap.form.from')}
            name="from"
            value={from}
            assets={fromAssets}
            onChange={(a) => pick(a, to)}
          />
          <button
            type="button"
            className="icon-button swap-flip"
            data-testid="swap-flip"
            disabled={!reverse}
            aria-label={t('swap.form.flip', { from: to, to: from })}
            onClick={() => pick(to, from)}
          >
            <span aria-hidden="true">⇄</span>
          </button>
          <AssetPicker
            label={t('swap.form.to')}
            name="to"
            value={to}
            assets={toAssets}
            onChange={(a) => pick(from, a)}
          />
        </div>
        <AmountField
          label={t('swap.amount.label', { asset: from })}
          value={typed}
          onChange={setTyped}
          hint={[
            available !== undefined && t('swap.amount.available', { amount: f.exact(available, from) }),
            pair &&
              t('swap.amount.limits', { minimum: f.exact(pair.min, from), maximum: f.exact(pair.max, from) }),
          ]}
          error={amountError}
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
        {short ? (
          <div className="notice swap-short" data-testid="short-balance">
            <p>{t('swap.refusal.balance')}</p>
            {book === 'demo' ? null : (
              <p>
                <Link to="/profile/deposit">{t('swap.refusal.deposit')}</Link>
              </p>
            )}
          </div>
        ) : null}
        <LiveQuote
          className="swap-live-quote"
          testId="swap-quote"
          title={t('swap.quote.title')}
          busy={quoting}
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
          refusal={quote.isError && settled === quotable ? <Refusal error={quote.error} pair={pair} /> : null}
          ready={current !== undefined}
        >
          {current ? (
            <>
              <QuoteFigures quote={current} testId="quote-figures" />
              <Countdown left={clock.left} id={statusId} />
              {clock.expired ? (
                <button
                  type="button"
                  className="button ghost"
                  data-testid="new-quote"
                  disabled={quote.isFetching}
                  onClick={() => void quote.refetch()}
                >
                  {t('swap.quote.renew')}
                </button>
              ) : null}
            </>
          ) : null}
        </LiveQuote>
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
        <ConfirmSwap first={confirming} pair={pair} onClose={() => setConfirming(null)} onDone={done} />
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
      <p className="muted swap-intro">{t('swap.intro')}</p>
      {!pairs.isSuccess ? (
        <QueryState query={pairs} />
      ) : pairs.data.length === 0 ? (
        <Empty text={t('swap.pairs.empty')} />
      ) : (
        <div className="swap-layout">
          <div className="swap-main">
            {isLogin && user ? <SwapForm pairs={pairs.data} userId={user.id} /> : <SignInPrompt />}
            {isLogin && user ? <History userId={user.id} /> : null}
          </div>
          <PairList pairs={pairs.data} />
        </div>
      )}
    </ProductPage>
  );
}
