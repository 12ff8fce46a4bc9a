import { Code, SWAP_HOLD_SECONDS, type SwapPair, type SwapQuote, type SwapRecord } from '@swx/contract';
import { type RefObject, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { QuoteConfirm } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import {
  Countdown,
  NewQuote,
  newSwapRequestId,
  QuoteFigures,
  Refusal,
  useQuoteClock,
  useSwapFormat,
} from './parts.tsx';

/** Seconds left of a held quote when the customer is warned and offered more time (WCAG 2.2.1: at least 20). */
const WARN_SECONDS = 20;

/**
 * The commit of the quote shown under one request id per attempt at it (a retry after a lost
 * answer swaps once; a new quote is a new attempt); a new quote only when the customer asks, or
 * as the dialog opens: the form's quote lasts seconds, so the dialog asks for one held for
 * reading (SWAP_HOLD_SECONDS, rechecked against the market by the server after its first seconds).
 */
function useSwapCommit(
  first: SwapQuote,
  dialog: RefObject<HTMLDialogElement | null>,
  onDone: (record: SwapRecord) => void,
) {
  const { t } = useTranslation();
  return useQuoteCommit({
    first,
    newId: newSwapRequestId,
    commit: (q, requestId) => callApi('instantExchange', { body: { quoteId: q.quoteId, requestId } }),
    renew: (q) => callApi('swapQuote', { body: { from: q.from, to: q.to, amount: q.amount, hold: true } }),
    autoRenew: false,
    onDone: (done) => {
      dialog.current?.close();
      onDone(done);
    },
    renewedText: t('swap.confirm.renewed'),
    // Never more left than its lifetime, as the countdown counts (a clock behind the server's).
    expiresAt: (q) => Math.min(q.expiresAt, Date.now() / 1000 + (q.expiresAt - q.quoteTime)),
  });
}

/** A held quote nearly out: said once, with the offer of more time (a new quote held as long again). */
function useWarning(left: number): boolean {
  const { t } = useTranslation();
  const warn = left > 0 && left <= WARN_SECONDS * 1000;
  useEffect(() => {
    if (warn) announce(t('swap.confirm.warning'));
  }, [warn, t]);
  return warn;
}

/**
 * The confirm step: exactly the figures of one quote (kept here while the customer reads them),
 * the book, the time left, and the commit of that quote under one request id. It opens on a quote
 * held for reading, asked for first (the dialog opens once it is in); near its end the customer is
 * warned and may ask for more time. An expired quote (counted down here, or refused by the server
 * with 10032) is never sent: the customer asks for a new one, reads it, and confirms that.
 */
export function ConfirmSwap({
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
  const dialog = useRef<HTMLDialogElement>(null);
  const expiredId = useId();
  const { quote, ready, renewed, busy, failure, submit, renew } = useSwapCommit(first, dialog, onDone);
  useEffect(() => {
    const element = dialog.current;
    if (ready && element && !element.open) element.showModal();
  }, [ready]);
  const clock = useQuoteClock(ready ? quote.expiresAt : undefined, true, SWAP_HOLD_SECONDS);
  const warn = useWarning(ready ? clock.left : 0);
  const refusedAsExpired = failure instanceof ApiFailure && failure.code === Code.PRICE_CHANGED;
  const expired = clock.expired || refusedAsExpired;
  const newQuote = <NewQuote disabled={busy} onClick={() => void renew()} />;
  if (!ready) return null;
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('swap.confirm.title')}
      label={t('swap.quote.title')}
      testId="swap-confirm"
      className="swap-dialog"
      onClose={onClose}
      onConfirm={() => {
        if (!expired && !busy) void submit();
      }}
      countdown={
        <Countdown left={refusedAsExpired ? 0 : clock.left} id={expiredId} max={SWAP_HOLD_SECONDS} />
      }
      renewed={renewed && !expired && t('swap.confirm.renewed')}
      notices={<HeldNote warn={warn && !failure} busy={busy} onMore={() => void renew()} />}
      failure={
        failure ? (
          <Refusal error={failure} pair={pair} action={newQuote} />
        ) : clock.expired ? (
          <div className="product-offer" data-testid="quote-expired">
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

/** Under the figures: how long the quote is held, or (near its end) the warning and "More time". */
function HeldNote({ warn, busy, onMore }: { warn: boolean; busy: boolean; onMore: () => void }) {
  const { t } = useTranslation();
  if (!warn)
    return (
      <p className="small muted" data-testid="quote-held">
        {t('swap.confirm.held')}
      </p>
    );
  return (
    <div className="notice product-offer" data-testid="quote-warning">
      <p>{t('swap.confirm.warning')}</p>
      <button
        type="button"
        className="button ghost"
        data-testid="more-time"
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) onMore();
        }}
      >
        {t('swap.confirm.more')}
      </button>
    </div>
  );
}
