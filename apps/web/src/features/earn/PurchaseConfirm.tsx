import type { EarnProduct, EarnQuote } from '@swx/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type RefObject, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { minorOf } from '../../app/money.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { exactFact, type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { Refusal, useEarnFormat } from './parts.tsx';
import { earnQueries } from './queries.ts';

export type PayWith = 'balance' | 'proof';
export type Proof = { proof: string; txHash: string };
type EarnFormat = ReturnType<typeof useEarnFormat>;

/** What the money earns: the rates, the daily and the whole profit (static), or that it varies (dynamic). */
function incomeFigures(quote: EarnQuote, t: TFunction, f: EarnFormat): Fact[] {
  if (quote.income !== 'static')
    return [
      {
        name: 'estimatedProfit',
        label: t('earn.quote.income'),
        value: '',
        shown: t('earn.quote.dynamicIncome'),
      },
    ];
  const figures: Fact[] = [
    {
      name: 'rate',
      label: t('earn.quote.rate'),
      value: quote.annualRate ?? '',
      shown: t('earn.quote.rates', {
        annual: quote.annualRate === null ? '—' : f.percent(quote.annualRate),
        daily: quote.dailyRate === null ? '—' : f.percent(quote.dailyRate),
      }),
    },
  ];
  if (quote.dailyProfit !== null)
    figures.push(exactFact(f, 'dailyProfit', t('earn.quote.dailyProfit'), quote.dailyProfit, quote.asset));
  figures.push({
    name: 'estimatedProfit',
    label: t('earn.quote.estimatedProfit'),
    value: quote.estimatedProfit ?? '',
    shown:
      quote.estimatedProfit === null
        ? t('earn.quote.whileHeld')
        : f.exact(quote.estimatedProfit, quote.asset),
  });
  return figures;
}

/** When the money is taken, starts earning, and (with a term) ends and comes back. */
function dateFigures(quote: EarnQuote, t: TFunction, f: EarnFormat): Fact[] {
  const dates: [string, string | null][] = [
    ['entrustTime', quote.entrustTime],
    ['accrualStart', quote.accrualStart],
    ['expiryTime', quote.expiryTime],
    ['collectionTime', quote.collectionTime],
  ];
  return dates.flatMap(([name, value]) =>
    value === null ? [] : [{ name, label: t(`earn.quote.${name}`), value, shown: f.date(value) }],
  );
}

/** The figures of a quote, exactly as the server gave them: what the commit posts. */
function useQuoteFigures(quote: EarnQuote): Fact[] {
  const { t } = useTranslation();
  const f = useEarnFormat();
  return [
    exactFact(f, 'amount', t('earn.quote.amount'), quote.amount, quote.asset),
    {
      name: 'term',
      label: t('earn.fact.term'),
      value: String(quote.termDays ?? ''),
      shown: f.term(quote.termDays),
    },
    ...incomeFigures(quote, t, f),
    ...dateFigures(quote, t, f),
    {
      name: 'penaltyRate',
      label: t('earn.fact.penalty'),
      value: quote.penaltyRate,
      shown:
        quote.termDays === null
          ? t('earn.noPenalty')
          : t('earn.penaltyRule', { rate: f.percent(quote.penaltyRate) }),
    },
  ];
}

export function QuoteFigures({ quote, testId }: { quote: EarnQuote; testId: string }) {
  const figures = useQuoteFigures(quote);
  return <Facts facts={figures} testId={testId} className="earn-quote" quoteId={quote.quoteId} />;
}

/** How it is paid: from the balance (what is available), or by a transfer (to where). */
function payingFacts(
  quote: EarnQuote,
  payWith: PayWith,
  payInAddress: string | null,
  t: TFunction,
  f: EarnFormat,
): Fact[] {
  const paying: Fact[] = [
    {
      name: 'payWith',
      label: t('earn.pay.title'),
      shown: payWith === 'proof' ? t('earn.pay.proof') : t('earn.pay.balance'),
    },
  ];
  if (payWith === 'balance')
    paying.push(exactFact(f, 'available', t('earn.quote.available'), quote.available, quote.asset));
  else if (payInAddress)
    paying.push({
      name: 'payIn',
      label: t('earn.pay.address'),
      shown: (
        <code dir="ltr" className="earn-address product-address">
          {payInAddress}
        </code>
      ),
    });
  return paying;
}

/**
 * The commit of exactly the quote shown (from the balance, or with the transfer's proof), renewed
 * in place when it ran out; once done, the investments and balances are read again, the outcome
 * is said and the customer is taken to their investments.
 */
function usePurchaseCommit({
  product,
  first,
  payWith,
  proof,
  dialog,
}: {
  product: EarnProduct;
  first: EarnQuote;
  payWith: PayWith;
  proof: Proof;
  dialog: RefObject<HTMLDialogElement | null>;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useQuoteCommit({
    first,
    commit: (q, requestId) =>
      payWith === 'proof'
        ? callApi('fundApplyWithProof', { body: { quoteId: q.quoteId, ...proof } })
        : callApi(product.type === 'vip' ? 'vipInvest' : 'fundApply', {
            body: { quoteId: q.quoteId, requestId },
          }),
    renew: (q) => callApi('earnQuote', { body: { productId: product.id, amount: q.amount } }),
    onDone: (done) => {
      void queryClient.invalidateQueries({ queryKey: earnQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(
        done.status === 'pending'
          ? t('earn.buy.sentForReview', { amount: f.exact(done.amount, done.asset), name: done.productName })
          : t('earn.buy.done', { amount: f.exact(done.amount, done.asset), name: done.productName }),
      );
      navigate(`/financial/myInvest/${done.type}`);
    },
    renewedText: t('earn.buy.renewed'),
  });
}

/**
 * The confirm step: the figures of one quote (kept here while the customer reads them), how it is
 * paid, and the commit of exactly that quote. A quote that ran out (10032) is renewed in place and
 * the customer confirms the figures shown; nothing is bought until they do.
 */
export function ConfirmPurchase({
  product,
  first,
  payWith,
  proof,
  payInAddress,
  onClose,
}: {
  product: EarnProduct;
  first: EarnQuote;
  payWith: PayWith;
  proof: Proof;
  payInAddress: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const book = useCurrentBook();
  const dialog = useModal();
  const whyId = useId();
  const { quote, renewed, busy, failure, submit } = usePurchaseCommit({
    product,
    first,
    payWith,
    proof,
    dialog,
  });
  const short =
    payWith === 'balance' &&
    (minorOf(quote.available, quote.asset) ?? 0n) < (minorOf(quote.amount, quote.asset) ?? 0n);
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('earn.buy.confirmTitle')}
      label={t('earn.quote.title')}
      testId="earn-confirm"
      className="earn-dialog"
      onClose={onClose}
      onConfirm={() => void submit()}
      renewed={renewed && t('earn.buy.renewed')}
      notices={
        short ? (
          <p className="notice" id={whyId}>
            {t('earn.refusal.balance')}
          </p>
        ) : null
      }
      failure={failure ? <Refusal error={failure} product={product} demo={book === 'demo'} /> : null}
      cancel={t('earn.buy.cancel')}
      confirm={
        busy ? t('earn.buy.investing') : t('earn.buy.confirm', { amount: f.exact(quote.amount, quote.asset) })
      }
      disabled={busy || short}
      why={short ? whyId : undefined}
    >
      <p className="product-confirm-name">{quote.productName}</p>
      <QuoteFigures quote={quote} testId="confirm-figures" />
      <Facts facts={payingFacts(quote, payWith, payInAddress, t, f)} />
      {payWith === 'proof' ? <p className="small muted">{t('earn.pay.reviewNote')}</p> : null}
    </QuoteConfirm>
  );
}
