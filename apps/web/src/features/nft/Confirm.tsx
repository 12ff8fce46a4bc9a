import { NFT_QUOTE_SECONDS, type NftOrder, type NftQuote } from '@swx/contract';
import type { TFunction } from 'i18next';
import { type RefObject, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { exactFact, type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { refusalText, useNftFormat } from './parts.tsx';

/** Seconds left of a quote under which it is renewed before it is shown (it lasts NFT_QUOTE_SECONDS). */
const READ_SECONDS = 20;

/** The seconds a quote has left, each second, and whether it ran out. */
function useQuoteLeft(expiresAt: number): { left: number; expired: boolean } {
  const at = () => Math.max(0, Math.min(NFT_QUOTE_SECONDS, Math.ceil(expiresAt - Date.now() / 1000)));
  const [left, setLeft] = useState(at);
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts with each quote's expiry
  useEffect(() => {
    setLeft(at());
    const timer = window.setInterval(() => setLeft(at()), 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  return { left, expired: left === 0 };
}

/** The figures of a bid or purchase quote: every one the commit posts or holds, and the rules it is under. */
function quoteFacts(q: NftQuote, t: TFunction, f: ReturnType<typeof useNftFormat>) {
  const facts: Fact[] = [
    exactFact(f, 'amount', q.kind === 'bid' ? t('nft.quote.held') : t('nft.quote.paid'), q.amount, q.asset),
    exactFact(f, 'charity', t('nft.quote.charity'), q.charityAmount, q.asset),
    exactFact(f, 'fee', t('nft.quote.fee'), q.platformFee, q.asset),
  ];
  if (q.kind === 'bid')
    facts.push({
      name: 'endsAt',
      label: t('nft.quote.endsAt'),
      shown: q.endsAt ? f.date(q.endsAt) : '—',
      value: q.endsAt ?? '',
    });
  if (q.buysNow)
    facts.push({
      name: 'buysNow',
      label: t('nft.quote.buysNowLabel'),
      shown: t('nft.quote.buysNow'),
      long: true,
    });
  if (q.kind === 'bid')
    facts.push({ name: 'hold', label: t('nft.quote.holdLabel'), shown: t('nft.quote.holdNote'), long: true });
  return facts;
}

/** Quote then commit of a bid or purchase: the commit of the quote shown, a quote that ran out renewed in place. */
function useNftCommit(
  first: NftQuote,
  dialog: RefObject<HTMLDialogElement | null>,
  onDone: (order: NftOrder) => void,
) {
  const { t } = useTranslation();
  return useQuoteCommit<NftQuote, NftOrder>({
    first,
    commit: (q, requestId) => callApi('buyNft', { body: { quoteId: q.quoteId, requestId } }),
    renew: (q) =>
      callApi('quoteNft', {
        body: { dropId: String(q.dropId), kind: q.kind, ...(q.kind === 'bid' ? { amount: q.amount } : {}) },
      }),
    onDone: (done) => {
      dialog.current?.close();
      announce(done.state === 'bought' ? t('nft.done.bought') : t('nft.done.leading'));
      onDone(done);
    },
    renewedText: t('nft.quote.renewed'),
    readSeconds: READ_SECONDS,
  });
}

/**
 * The confirm step of a bid or a purchase: exactly the figures of one quote, the book, the time
 * left, and the commit of that quote under one request id per attempt (a quote that ran out is
 * renewed in place, and nothing is committed until the customer confirms the figures shown).
 */
export function ConfirmNft({
  first,
  name,
  onClose,
  onDone,
}: {
  first: NftQuote;
  name: string;
  onClose: () => void;
  onDone: (order: NftOrder) => void;
}) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const dialog = useModal();
  const expiredId = useId();
  const { quote, ready, renewed, busy, failure, submit, renew } = useNftCommit(first, dialog, onDone);
  const clock = useQuoteLeft(quote.expiresAt);
  if (!ready) return null;
  const title = quote.kind === 'bid' ? t('nft.quote.bidTitle', { name }) : t('nft.quote.buyTitle', { name });
  return (
    <QuoteConfirm
      dialog={dialog}
      title={title}
      label={t('nft.quote.figures')}
      testId="nft-confirm"
      className="nft-dialog"
      onClose={onClose}
      onConfirm={() => {
        if (!clock.expired && !busy) void submit();
      }}
      countdown={
        <p id={expiredId} className="small" data-testid="quote-left">
          {clock.expired ? t('nft.quote.expired') : t('nft.quote.validFor', { seconds: clock.left })}
        </p>
      }
      renewed={renewed && !clock.expired && t('nft.quote.renewed')}
      failure={
        failure ? (
          <p className="form-error" role="alert" data-testid="nft-refusal">
            {refusalText(failure, t('state.error'))}
          </p>
        ) : clock.expired ? (
          <button type="button" className="button ghost" onClick={() => void renew()} disabled={busy}>
            {t('nft.quote.new')}
          </button>
        ) : null
      }
      cancel={t('nft.quote.cancel')}
      confirm={
        busy
          ? t('state.sending')
          : quote.kind === 'bid'
            ? t('nft.quote.confirmBid', { amount: f.exact(quote.amount, quote.asset) })
            : t('nft.quote.confirmBuy', { amount: f.exact(quote.amount, quote.asset) })
      }
      disabled={busy || clock.expired}
      why={clock.expired ? expiredId : undefined}
    >
      <Facts facts={quoteFacts(quote, t, f)} testId="nft-quote-figures" quoteId={quote.quoteId} />
    </QuoteConfirm>
  );
}
