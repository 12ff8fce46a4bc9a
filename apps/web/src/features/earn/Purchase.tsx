import { type EarnProduct, type EarnQuote, TX_HASH } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minorOf } from '../../app/money.ts';
import { BookBadge, useCurrentBook } from '../../shell/BookBadge.tsx';
import {
  AmountField,
  amountMessage,
  checkAmount,
  LiveQuote,
  ShortBalance,
  useSettled,
} from '../../ui/product/Amount.tsx';
import { Choice, type ChoiceOption } from '../../ui/product/Choice.tsx';
import { ScrollTable } from '../../ui/product/Facts.tsx';
import { PayAddress, TxHashField } from '../../ui/product/Transfer.tsx';
import { ImageInput } from '../uploads/ImageInput.tsx';
import { ConfirmPurchase, type PayWith, QuoteFigures } from './PurchaseConfirm.tsx';
import { CopyButton, maxInvest, Refusal, useEarnFormat } from './parts.tsx';
import { earnQueries } from './queries.ts';

type PayIn = { asset: string; network: string; address: string };

/** What early redemption would give on each day of the term (collapsed until asked for). */
function RedemptionTable({ quote }: { quote: EarnQuote }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (quote.redemption.length === 0) return null;
  return (
    <details className="product-details earn-redemption" data-testid="redemption-table">
      <summary>{t('earn.redemption.title')}</summary>
      <p className="small muted">{t('earn.redemption.note', { rate: f.percent(quote.penaltyRate) })}</p>
      <ScrollTable
        cards
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

/** The typed amount read and checked against the product's range; what can be quoted of it. */
function useAmountCheck(product: EarnProduct, typed: string, tried: boolean) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  // The most it takes now: its maximum, or less when its reserve or capacity left bounds it.
  const check = checkAmount(typed, product.asset, { min: product.minAmount, max: product.investable });
  const range = {
    minimum: f.exact(product.minAmount, product.asset),
    maximum: f.exact(product.investable, product.asset),
  };
  const error = amountMessage(check, {
    required: tried ? t('earn.amount.required') : undefined,
    invalid: t('earn.amount.invalid', { asset: product.asset }),
    range: t('earn.refusal.amountRange', range),
  });
  const quotable = typed.trim() !== '' && error === undefined ? check.amount : '';
  return { minor: check.minor, range, error, quotable };
}

/** The quote of the amount once it rested; `current` only while it is the quote of what is typed now. */
function useLiveQuote(userId: number, product: EarnProduct, quotable: string) {
  const book = useCurrentBook();
  const settled = useSettled(quotable);
  const quote = useQuery({
    ...earnQueries.quote(userId, book, product.id, settled),
    enabled: settled !== '' && settled === quotable,
  });
  const current = quote.data && quote.data.amount !== '' && settled === quotable ? quote.data : undefined;
  return {
    current,
    refused: quote.isError && settled === quotable,
    error: quote.error,
    quoting: quotable !== '' && (settled !== quotable || quote.isFetching) && !current,
  };
}

/** How it is paid, and the transfer's proof (its image, the hash) with their errors once tried. */
function usePayment(tried: boolean) {
  const { t } = useTranslation();
  const [payWith, setPayWith] = useState<PayWith>('balance');
  const [proof, setProof] = useState('');
  const [txHash, setTxHash] = useState('');
  const [uploading, setUploading] = useState(false);
  const txOk = TX_HASH.test(txHash.trim());
  const errors =
    payWith === 'proof' && tried
      ? {
          proof: proof ? undefined : t('earn.pay.proofRequired'),
          txHash: txOk ? undefined : t('earn.pay.txHashInvalid'),
        }
      : { proof: undefined, txHash: undefined };
  // Paid from the balance, or with both parts of the proof (and no image still on its way).
  const ready = !uploading && (payWith !== 'proof' || (proof !== '' && txOk));
  return { payWith, setPayWith, proof, setProof, txHash, setTxHash, uploading, setUploading, errors, ready };
}

type Payment = ReturnType<typeof usePayment>;

/** The amount, with what is available and the product's range, and the most one can put in. */
function PurchaseAmount({
  product,
  available,
  typed,
  onChange,
  error,
  range,
}: {
  product: EarnProduct;
  available: string | undefined;
  typed: string;
  onChange: (typed: string) => void;
  error: string | undefined;
  range: { minimum: string; maximum: string };
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const max = maxInvest(product, available);
  return (
    <AmountField
      label={t('earn.amount.label', { asset: product.asset })}
      value={typed}
      onChange={onChange}
      hint={[
        available !== undefined && t('earn.amount.available', { amount: f.exact(available, product.asset) }),
        t('earn.range', range),
      ]}
      error={error}
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
  );
}

/** The live quote: its figures and early redemption day by day, the refusal, or what to do first. */
function PurchaseQuote({
  product,
  live,
  quotable,
  demo,
}: {
  product: EarnProduct;
  live: ReturnType<typeof useLiveQuote>;
  quotable: string;
  demo: boolean;
}) {
  const { t } = useTranslation();
  return (
    <LiveQuote
      className="earn-live-quote"
      testId="earn-quote"
      title={t('earn.quote.title')}
      busy={live.quoting}
      idle={quotable === '' ? t('earn.quote.enterAmount') : null}
      refusal={live.refused ? <Refusal error={live.error} product={product} demo={demo} /> : null}
      ready={live.current !== undefined}
    >
      {live.current ? (
        <>
          <QuoteFigures quote={live.current} testId="quote-figures" />
          <RedemptionTable quote={live.current} />
        </>
      ) : null}
    </LiveQuote>
  );
}

/** From the balance (what is available), or by a transfer with its proof where the product takes one. */
function PayChoice({
  product,
  payment,
  available,
  canProof,
  demo,
}: {
  product: EarnProduct;
  payment: Payment;
  available: string | undefined;
  canProof: boolean;
  demo: boolean;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const options: ChoiceOption<PayWith>[] = [
    {
      value: 'balance',
      label: (
        <>
          {t('earn.pay.balance')}
          {available !== undefined ? (
            <span className="small muted">
              {' '}
              · {t('earn.amount.available', { amount: f.exact(available, product.asset) })}
            </span>
          ) : null}
        </>
      ),
    },
  ];
  if (canProof) options.push({ value: 'proof', label: t('earn.pay.proof') });
  return (
    <Choice
      legend={t('earn.pay.title')}
      name="payWith"
      value={payment.payWith}
      options={options}
      onChange={payment.setPayWith}
      className="earn-pay"
      optionClassName="earn-pay-option"
    >
      {!canProof && product.type === 'fund' ? (
        <p className="small muted">{demo ? t('earn.pay.proofLiveOnly') : t('earn.pay.proofUnavailable')}</p>
      ) : null}
    </Choice>
  );
}

/** The transfer: where to send it (with a copy button), then the image of its proof and its hash. */
function ProofStep({ payIn, payment }: { payIn: PayIn; payment: Payment }) {
  const { t } = useTranslation();
  return (
    <div className="earn-proof" data-testid="earn-proof">
      <p className="small">{t('earn.pay.sendTo', { asset: payIn.asset, network: payIn.network })}</p>
      <PayAddress
        address={payIn.address}
        testId="pay-in-address"
        className="earn-pay-address"
        codeClassName="earn-address"
        copy={<CopyButton text={payIn.address} label={t('earn.pay.copy')} name={t('earn.pay.copyAddress')} />}
      />
      <ImageInput
        purpose="fund_proof"
        name="proof"
        label={t('earn.pay.image')}
        error={payment.errors.proof}
        onChange={(id) => payment.setProof(id ?? '')}
        onBusyChange={payment.setUploading}
      />
      <TxHashField
        label={t('earn.pay.txHash')}
        value={payment.txHash}
        error={payment.errors.txHash}
        onChange={payment.setTxHash}
      />
    </div>
  );
}

/**
 * The purchase: the amount (with the most one can put in), its live quote (the figures the
 * commit posts), early redemption day by day, how to pay (the balance, or in the live book a
 * transfer with its proof), then the confirm step.
 */
export function Purchase({ product, userId }: { product: EarnProduct; userId: number }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const demo = book === 'demo';
  const wallet = useQuery(earnQueries.wallet(userId, book));
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<EarnQuote | null>(null);
  const amount = useAmountCheck(product, typed, tried);
  const live = useLiveQuote(userId, product, amount.quotable);
  const payment = usePayment(tried);
  const { current } = live;
  const available = wallet.data?.balances.find((b) => b.asset === product.asset)?.available;
  const payIn = wallet.data?.payIn ?? null;
  // A transfer is paid in to the customer's deposit address of the product's asset, when there is one.
  const canProof = product.type === 'fund' && !demo && payIn !== null && payIn.asset === product.asset;
  const short =
    payment.payWith === 'balance' &&
    current !== undefined &&
    (minorOf(current.available, current.asset) ?? 0n) < (amount.minor ?? 0n);
  const review = () => {
    setTried(true);
    if (amount.error === undefined && amount.quotable !== '' && current && payment.ready)
      setConfirming(current);
  };
  return (
    <section className="card earn-buy" aria-labelledby="earn-buy-title" data-testid="earn-purchase">
      <div className="product-card-head">
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
        <PurchaseAmount
          {...{ product, available, typed }}
          onChange={setTyped}
          error={amount.error}
          range={amount.range}
        />
        <PurchaseQuote product={product} live={live} quotable={amount.quotable} demo={demo} />
        <PayChoice {...{ product, payment, available, canProof, demo }} />
        {short ? (
          <ShortBalance text={t('earn.refusal.balance')} deposit={demo ? null : t('earn.refusal.deposit')} />
        ) : null}
        {payment.payWith === 'proof' && payIn ? <ProofStep payIn={payIn} payment={payment} /> : null}
        <button type="submit" className="button primary large block" data-testid="earn-review">
          {t('earn.buy.review')}
        </button>
      </form>
      {confirming ? (
        <ConfirmPurchase
          product={product}
          first={confirming}
          payWith={payment.payWith}
          proof={{ proof: payment.proof, txHash: payment.txHash }}
          payInAddress={payIn?.address ?? null}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
