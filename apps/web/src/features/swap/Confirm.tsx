import { Code, type SwapPair, type SwapQuote, type SwapRecord } from '@swx/contract';
import { type RefObject, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
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

/**
 * The commit of the quote shown under one request id per attempt at it (a retry after a lost
 * answer swaps once; a new quote is a new attempt); a new quote only when the customer asks.
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
    renew: (q) => callApi('swapQuote', { body: { from: q.from, to: q.to, amount: q.amount } }),
    autoRenew: false,
    onDone: (done) => {
      dialog.current?.close();
      onDone(done);
    },
    renewedText: t('swap.confirm.renewed'),
  });
}

/**
 * The confirm step: exactly the figures of one quote (kept here while the customer reads them),
 * the book, the time left, and the commit of that quote under one request id. An expired quote
 * (counted down here, or refused by the server with 10032) is never sent: the customer asks for a
 * new one, reads it, and confirms that.
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
  const dialog = useModal();
  const expiredId = useId();
  const { quote, renewed, busy, failure, submit, renew } = useSwapCommit(first, dialog, onDone);
  const clock = useQuoteClock(quote.expiresAt);
  const refusedAsExpired = failure instanceof ApiFailure && failure.code === Code.PRICE_CHANGED;
  const expired = clock.expired || refusedAsExpired;
  const newQuote = <NewQuote disabled={busy} onClick={() => void renew()} />;
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
