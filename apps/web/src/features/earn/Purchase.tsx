import { type EarnProduct, type EarnQuote, earnProofBody } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { callApi } from '../../app/api.ts';
import { minorOf } from '../../app/money.ts';
import { BookBadge, useCurrentBook } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { AmountField, amountMessage, checkAmount, LiveQuote, useSettled } from '../../ui/product/Amount.tsx';
import { type Fact, Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { PayAddress, TxHashField } from '../../ui/product/Transfer.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { ImageInput } from '../uploads/ImageInput.tsx';
import { CopyButton, maxInvest, Refusal, useEarnFormat } from './parts.tsx';
import { earnQueries } from './queries.ts';

type PayWith = 'balance' | 'proof';

/** The figures of a quote, exactly as the server gave them: what the commit posts. */
function useQuoteFigures(quote: EarnQuote): Fact[] {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const figures: Fact[] = [
    {
      name: 'amount',
      label: t('earn.quote.amount'),
      value: quote.amount,
      shown: f.exact(quote.amount, quote.asset),
    },
    {
      name: 'term',
      label: t('earn.fact.term'),
      value: String(quote.termDays ?? ''),
      shown: f.term(quote.termDays),
    },
  ];
  if (quote.income === 'static') {
    figures.push({
      name: 'rate',
      label: t('earn.quote.rate'),
      value: quote.annualRate ?? '',
      shown: t('earn.quote.rates', {
        annual: quote.annualRate === null ? '—' : f.percent(quote.annualRate),
        daily: quote.dailyRate === null ? '—' : f.percent(quote.dailyRate),
      }),
    });
    if (quote.dailyProfit !== null)
      figures.push({
        name: 'dailyProfit',
        label: t('earn.quote.dailyProfit'),
        value: quote.dailyProfit,
        shown: f.exact(quote.dailyProfit, quote.asset),
      });
    figures.push(
      quote.estimatedProfit === null
        ? {
            name: 'estimatedProfit',
            label: t('earn.quote.estimatedProfit'),
            value: '',
            shown: t('earn.quote.whileHeld'),
          }
        : {
            name: 'estimatedProfit',
            label: t('earn.quote.estimatedProfit'),
            value: quote.estimatedProfit,
            shown: f.exact(quote.estimatedProfit, quote.asset),
          },
    );
  } else {
    figures.push({
      name: 'estimatedProfit',
      label: t('earn.quote.income'),
      value: '',
      shown: t('earn.quote.dynamicIncome'),
    });
  }
  figures.push(
    {
      name: 'entrustTime',
      label: t('earn.quote.entrustTime'),
      value: quote.entrustTime,
      shown: f.date(quote.entrustTime),
    },
    {
      name: 'accrualStart',
      label: t('earn.quote.accrualStart'),
      value: quote.accrualStart,
      shown: f.date(quote.accrualStart),
    },
  );
  if (quote.expiryTime !== null)
    figures.push({
      name: 'expiryTime',
      label: t('earn.quote.expiryTime'),
      value: quote.expiryTime,
      shown: f.date(quote.expiryTime),
    });
  if (quote.collectionTime !== null)
    figures.push({
      name: 'collectionTime',
      label: t('earn.quote.collectionTime'),
      value: quote.collectionTime,
      shown: f.date(quote.collectionTime),
    });
  figures.push({
    name: 'penaltyRate',
    label: t('earn.fact.penalty'),
    value: quote.penaltyRate,
    shown:
      quote.termDays === null
        ? t('earn.noPenalty')
        : t('earn.penaltyRule', { rate: f.percent(quote.penaltyRate) }),
  });
  return figures;
}

function QuoteFigures({ quote, testId }: { quote: EarnQuote; testId: string }) {
  const figures = useQuoteFigures(quote);
  return <Facts facts={figures} testId={testId} className="earn-quote" quoteId={quote.quoteId} />;
}

/** What early redemption would give on each day of the term (collapsed until asked for). */
function RedemptionTable({ quote }: { quote: EarnQuote }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (quote.redemption.length === 0) return null;
  return (
    <details className="earn-redemption" data-testid="redemption-table">
      <summary>{t('earn.redemption.title')}</summary>
      <p className="small muted">{t('earn.redemption.note', { rate: f.percent(quote.penaltyRate) })}</p>
      <ScrollTable
        label={t('earn.redemption.title')}
        head={[
          { text: t('earn.redemption.day') },
          { text: t('earn.redemption.penalty'), num: true },
          { text: t('earn.redemption.income'), num: true },
          { text: t('earn.redemption.receive'), num: true },
        ]}
      >
        {quote.redemption.map((row) => (
          <tr key={row.day} data-day={row.day}>
            <td>{f.day(row.day)}</td>
            <td className="num">{f.exact(row.penalty, quote.asset)}</td>
            <td className="num">{f.exact(row.incomeToDate, quote.asset)}</td>
            <td className="num" data-value={row.receive}>
              {f.exact(row.receive, quote.asset)}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </details>
  );
}

type Proof = { proof: string; txHash: string };

/**
 * The confirm step: the figures of one quote (kept here while the customer reads them), how it is
 * paid, and the commit of exactly that quote. A quote that ran out (10032) is renewed in place and
 * the customer confirms the figures shown; nothing is bought until they do.
 */
function ConfirmPurchase({
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dialog = useModal();
  const whyId = useId();
  const { quote, renewed, busy, failure, submit } = useQuoteCommit({
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
  const short =
    payWith === 'balance' &&
    (minorOf(quote.available, quote.asset) ?? 0n) < (minorOf(quote.amount, quote.asset) ?? 0n);
  const paying: Fact[] = [
    {
      name: 'payWith',
      label: t('earn.pay.title'),
      shown: payWith === 'proof' ? t('earn.pay.proof') : t('earn.pay.balance'),
    },
  ];
  if (payWith === 'balance')
    paying.push({
      name: 'available',
      label: t('earn.quote.available'),
      value: quote.available,
      shown: f.exact(quote.available, quote.asset),
    });
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
      <p className="earn-confirm-name">{quote.productName}</p>
      <QuoteFigures quote={quote} testId="confirm-figures" />
      <Facts facts={paying} />
      {payWith === 'proof' ? <p className="small muted">{t('earn.pay.reviewNote')}</p> : null}
    </QuoteConfirm>
  );
}

/**
 * The purchase: the amount (with the most one can put in), its live quote (the figures the
 * commit posts), early redemption day by day, how to pay (the balance, or in the live book a
 * transfer with its proof), then the confirm step.
 */
export function Purchase({ product, userId }: { product: EarnProduct; userId: number }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const book = useCurrentBook();
  const demo = book === 'demo';
  const wallet = useQuery(earnQueries.wallet(userId, book));
  const [typed, setTyped] = useState('');
  const [payWith, setPayWith] = useState<PayWith>('balance');
  const [proof, setProof] = useState('');
  const [txHash, setTxHash] = useState('');
  const [uploading, setUploading] = useState(false);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<EarnQuote | null>(null);
  const check = checkAmount(typed, product.asset, { min: product.minAmount, max: product.maxAmount });
  const { amount, minor } = check;
  const range = {
    minimum: f.exact(product.minAmount, product.asset),
    maximum: f.exact(product.maxAmount, product.asset),
  };
  const amountError = amountMessage(check, {
    required: tried ? t('earn.amount.required') : undefined,
    invalid: t('earn.amount.invalid', { asset: product.asset }),
    range: t('earn.refusal.amountRange', range),
  });
  const quotable = typed.trim() !== '' && amountError === undefined ? amount : '';
  const settled = useSettled(quotable);
  const quote = useQuery({
    ...earnQueries.quote(userId, book, product.id, settled),
    enabled: settled !== '' && settled === quotable,
  });
  const current = quote.data && quote.data.amount !== '' && settled === quotable ? quote.data : undefined;
  const available = wallet.data?.balances.find((b) => b.asset === product.asset)?.available;
  const payIn = wallet.data?.payIn ?? null;
  // A transfer is paid in to the customer's deposit address of the product's asset, when there is one.
  const canProof = product.type === 'fund' && !demo && payIn !== null && payIn.asset === product.asset;
  const max = maxInvest(product, available);
  const txOk = earnProofBody.shape.txHash.safeParse(txHash).success;
  const proofErrors =
    payWith === 'proof' && tried
      ? {
          proof: proof ? undefined : t('earn.pay.proofRequired'),
          txHash: txOk ? undefined : t('earn.pay.txHashInvalid'),
        }
      : { proof: undefined, txHash: undefined };
  const short =
    payWith === 'balance' &&
    current !== undefined &&
    (minorOf(current.available, current.asset) ?? 0n) < (minor ?? 0n);
  const review = () => {
    setTried(true);
    if (uploading) return;
    if (amountError !== undefined || quotable === '' || !current) return;
    if (payWith === 'proof' && (!proof || !txOk)) return;
    setConfirming(current);
  };
  const quoting = quotable !== '' && (settled !== quotable || quote.isFetching) && !current;
  return (
    <section className="card earn-buy" aria-labelledby="earn-buy-title" data-testid="earn-purchase">
      <div className="confirm-head">
        <h2 id="earn-buy-title">{t('earn.buy.title')}</h2>
        <BookBadge />
      </div>
      {demo ? <p className="small muted">{t('earn.buy.demoNote')}</p> : null}
      <form
        className="product-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          review();
        }}
      >
        <AmountField
          label={t('earn.amount.label', { asset: product.asset })}
          value={typed}
          onChange={setTyped}
          hint={[
            available !== undefined &&
              t('earn.amount.available', { amount: f.exact(available, product.asset) }),
            t('earn.range', range),
          ]}
          error={amountError}
          max={
            max === null
              ? undefined
              : {
                  value: max,
                  asset: product.asset,
                  text: t('earn.amount.max'),
                  label: t('earn.amount.maxLabel', { amount: f.exact(max, product.asset) }),
                }
          }
        />
        <LiveQuote
          className="earn-live-quote"
          testId="earn-quote"
          title={t('earn.quote.title')}
          busy={quoting}
          idle={quotable === '' ? t('earn.quote.enterAmount') : null}
          refusal={
            quote.isError && settled === quotable ? (
              <Refusal error={quote.error} product={product} demo={demo} />
            ) : null
          }
          ready={current !== undefined}
        >
          {current ? (
            <>
              <QuoteFigures quote={current} testId="quote-figures" />
              <RedemptionTable quote={current} />
            </>
          ) : null}
        </LiveQuote>
        <fieldset className="earn-pay product-choice">
          <legend>{t('earn.pay.title')}</legend>
          <label className="earn-pay-option product-option">
            <input
              type="radio"
              name="payWith"
              value="balance"
              checked={payWith === 'balance'}
              onChange={() => setPayWith('balance')}
            />
            <span>
              {t('earn.pay.balance')}
              {available !== undefined ? (
                <span className="small muted">
                  {' '}
                  · {t('earn.amount.available', { amount: f.exact(available, product.asset) })}
                </span>
              ) : null}
            </span>
          </label>
          {canProof ? (
            <label className="earn-pay-option product-option">
              <input
                type="radio"
                name="payWith"
                value="proof"
                checked={payWith === 'proof'}
                onChange={() => setPayWith('proof')}
              />
              <span>{t('earn.pay.proof')}</span>
            </label>
          ) : product.type === 'fund' ? (
            <p className="small muted">
              {demo ? t('earn.pay.proofLiveOnly') : t('earn.pay.proofUnavailable')}
            </p>
          ) : null}
        </fieldset>
        {short ? (
          <div className="notice" data-testid="short-balance">
            <p>{t('earn.refusal.balance')}</p>
            {demo ? null : <Link to="/profile/deposit">{t('earn.refusal.deposit')}</Link>}
          </div>
        ) : null}
        {payWith === 'proof' && payIn ? (
          <div className="earn-proof" data-testid="earn-proof">
            <p className="small">{t('earn.pay.sendTo', { asset: payIn.asset, network: payIn.network })}</p>
            <PayAddress
              address={payIn.address}
              testId="pay-in-address"
              className="earn-pay-address"
              codeClassName="earn-address"
              copy={
                <CopyButton
                  text={payIn.address}
                  label={t('earn.pay.copy')}
                  name={t('earn.pay.copyAddress')}
                />
              }
            />
            <ImageInput
              purpose="fund_proof"
              name="proof"
              label={t('earn.pay.image')}
              error={proofErrors.proof}
              onChange={(id) => setProof(id ?? '')}
              onBusyChange={setUploading}
            />
            <TxHashField
              label={t('earn.pay.txHash')}
              value={txHash}
              error={proofErrors.txHash}
              onChange={setTxHash}
            />
          </div>
        ) : null}
        <button type="submit" className="button primary large block" data-testid="earn-review">
          {t('earn.buy.review')}
        </button>
      </form>
      {confirming ? (
        <ConfirmPurchase
          product={product}
          first={confirming}
          payWith={payWith}
          proof={{ proof, txHash }}
          payInAddress={payIn?.address ?? null}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
