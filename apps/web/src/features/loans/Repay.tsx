import { Code, type LoanPayoff, TX_HASH } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { minorOf } from '../../app/money.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { AmountField, amountMessage, checkAmount, ShortBalance } from '../../ui/product/Amount.tsx';
import { Choice } from '../../ui/product/Choice.tsx';
import { exactFact, type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { PayAddress, TxHashField } from '../../ui/product/Transfer.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { ImageInput } from '../uploads/ImageInput.tsx';
import { decimalOf, Refusal, useLoanFormat } from './parts.tsx';
import { loanQueries, refreshAfterRepayment } from './queries.ts';

/** How a payment of `amount` is allocated: late cost, then interest, then principal (as the server does). */
export function allocate(payoff: LoanPayoff, amount: bigint) {
  const a = payoff.asset;
  let rest = amount;
  const take = (owed: string) => {
    const value = minorOf(owed, a) ?? 0n;
    const part = rest < value ? rest : value;
    rest -= part;
    return part;
  };
  const lateCost = take(payoff.lateCost);
  const interest = take(payoff.interest);
  const principal = take(payoff.principal);
  const left = (minorOf(payoff.total, a) ?? 0n) - amount;
  return { lateCost, interest, principal, left: left < 0n ? 0n : left };
}

/** What a payment of `amount` pays off, from what, and what is left: the figures of the confirm step. */
function useAllocationFacts(payoff: LoanPayoff, amount: bigint): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const asset = payoff.asset;
  const split = allocate(payoff, amount);
  const fact = (name: string, label: string, minor: bigint) =>
    exactFact(f, name, label, decimalOf(minor, asset), asset);
  return [
    fact('amount', t('loan.repay.amount'), amount),
    fact('lateCost', t('loan.repay.toLate'), split.lateCost),
    fact('interest', t('loan.repay.toInterest'), split.interest),
    fact('principal', t('loan.repay.toPrincipal'), split.principal),
    fact('left', t('loan.repay.left'), split.left),
    {
      name: 'from',
      label: t('loan.repay.from'),
      value: payoff.available,
      shown: t('loan.repay.fromBalance', { amount: f.exact(payoff.available, asset) }),
    },
  ];
}

/** What the confirm step pays: an amount, in full or in part, or the withdrawal (always in full). */
type Paying = { amount: bigint; full: boolean; withdraw: boolean };

/**
 * The payment from the balance (or the withdrawal). Once asked, the same request id: a retry after
 * a lost answer pays once. Nothing is renewed here.
 */
function useRepayCommit(
  payoff: LoanPayoff,
  { amount, full, withdraw }: Paying,
  dialog: RefObject<HTMLDialogElement | null>,
) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const queryClient = useQueryClient();
  const shown = f.exact(decimalOf(amount, payoff.asset), payoff.asset);
  return useQuoteCommit({
    first: amount,
    commit: async (_, requestId) => {
      try {
        return withdraw
          ? await callApi('loanWithdraw', { body: { loanId: payoff.loanId, requestId } })
          : await callApi('completeLoan', {
              body: {
                loanId: payoff.loanId,
                requestId,
                full,
                ...(full ? {} : { amount: decimalOf(amount, payoff.asset) }),
              },
            });
      } catch (error) {
        // 10032: another repayment changed what is owed; the figures behind the dialog are asked again.
        if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED)
          void queryClient.invalidateQueries({ queryKey: loanQueries.all });
        throw error;
      }
    },
    onDone: (done) => {
      void refreshAfterRepayment(queryClient, done);
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(
        done.state === 'repaid' || done.state === 'withdrawn'
          ? t('loan.repay.doneAll', { amount: shown })
          : t('loan.repay.donePart', { amount: shown }),
      );
    },
  });
}

/** The confirm step of a repayment from the balance (or a withdrawal): the amount and its allocation. */
function ConfirmRepay({
  payoff,
  paying,
  onClose,
}: {
  payoff: LoanPayoff;
  paying: Paying;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const dialog = useModal();
  const facts = useAllocationFacts(payoff, paying.amount);
  const { busy, failure, submit } = useRepayCommit(payoff, paying, dialog);
  const { withdraw } = paying;
  const shown = f.exact(decimalOf(paying.amount, payoff.asset), payoff.asset);
  return (
    <QuoteConfirm
      dialog={dialog}
      title={withdraw ? t('loan.withdraw.confirmTitle') : t('loan.repay.confirmTitle')}
      label={t('loan.repay.allocation')}
      testId="repay-confirm"
      className="loan-dialog"
      onClose={onClose}
      onConfirm={() => void submit()}
      failure={failure ? <Refusal error={failure} /> : null}
      cancel={t('loan.repay.cancel')}
      confirm={busy ? t('loan.repay.paying') : t('loan.repay.confirm', { amount: shown })}
      disabled={busy}
    >
      <p className="small muted">{withdraw ? t('loan.withdraw.note') : t('loan.repay.allocationNote')}</p>
      <Facts facts={facts} testId="repay-figures" />
    </QuoteConfirm>
  );
}

/**
 * A repayment proof: its amount, the transfer's hash and the image, their errors once the customer
 * tried to send it; sent, a fresh form (a new image input: the sent image is taken).
 */
function useProof(payoff: LoanPayoff, address: string) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [txHash, setTxHash] = useState('');
  const [proof, setProof] = useState('');
  const [uploading, setUploading] = useState(false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const check = checkAmount(typed, payoff.asset);
  const { amount, minor } = check;
  const hashOk = TX_HASH.test(txHash.trim());
  const invalid = t('loan.amount.invalid', { asset: payoff.asset });
  const errors = {
    amount: tried ? amountMessage(check, { required: invalid, invalid }) : undefined,
    txHash: tried && !hashOk ? t('loan.proof.txHashInvalid') : undefined,
    proof: tried && !proof ? t('loan.proof.imageRequired') : undefined,
  };
  const submit = async () => {
    setTried(true);
    setFailure(null);
    if (!(minor !== null && minor > 0n && proof && hashOk) || uploading) return;
    setBusy(true);
    try {
      await callApi('loanRepayProof', { body: { loanId: payoff.loanId, amount, proof, txHash, address } });
      void queryClient.invalidateQueries({ queryKey: loanQueries.all });
      announce(t('loan.proof.sent', { amount: f.exact(amount, payoff.asset) }));
      setTyped('');
      setTxHash('');
      setProof('');
      setRound((n) => n + 1);
      setTried(false);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { typed, setTyped, txHash, setTxHash, setProof, setUploading, round, errors, busy, failure, submit };
}

/** Repay by a transfer to the platform's repayment address, with the proof staff review. */
function ByProof({ payoff }: { payoff: LoanPayoff }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const [address] = payoff.repayAddresses;
  const form = useProof(payoff, address?.address ?? '');
  if (!address) return <p className="notice">{t('loan.proof.noAddress')}</p>;
  return (
    <form
      className="product-form loan-form loan-proof"
      data-testid="repay-proof"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      <p className="small">{t('loan.proof.sendTo', { asset: address.asset, network: address.network })}</p>
      <PayAddress
        address={address.address}
        testId="repay-address"
        className="loan-address-row"
        codeClassName="loan-address"
        copy={
          <CopyButton
            text={address.address}
            label={t('loan.proof.copy')}
            name={t('loan.proof.copyAddress')}
            said={{ copied: t('loan.proof.copied'), failed: t('loan.proof.copyFailed') }}
          />
        }
      />
      <AmountField
        label={t('loan.proof.amount', { asset: payoff.asset })}
        name="proofAmount"
        value={form.typed}
        onChange={form.setTyped}
        hint={[t('loan.repay.owedToday', { amount: f.exact(payoff.total, payoff.asset) })]}
        error={form.errors.amount}
      />
      <TxHashField
        label={t('loan.proof.txHash')}
        value={form.txHash}
        error={form.errors.txHash}
        onChange={form.setTxHash}
      />
      <ImageInput
        key={form.round}
        purpose="loan_repayment_proof"
        name="proof"
        label={t('loan.proof.image')}
        error={form.errors.proof}
        onChange={(id) => form.setProof(id ?? '')}
        onBusyChange={form.setUploading}
      />
      {form.failure ? <Refusal error={form.failure} /> : null}
      <SubmitButton busy={form.busy} className="button primary" testId="proof-submit">
        {form.busy ? t('loan.proof.sending') : t('loan.proof.submit')}
      </SubmitButton>
      <p className="small muted">{t('loan.proof.reviewNote')}</p>
    </form>
  );
}

/** Today's payoff: what is owed by part and in all, the interest repaying today saves, the balance. */
function usePayoffFacts(payoff: LoanPayoff): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const fact = (
    name: 'principal' | 'interest' | 'lateCost' | 'total' | 'interestSaved' | 'available',
    label: string,
  ) => exactFact(f, name, label, payoff[name], payoff.asset);
  return [
    fact('principal', t('loan.payoff.principal')),
    fact('interest', t('loan.payoff.interest')),
    fact('lateCost', t('loan.payoff.lateCost')),
    fact('total', t('loan.payoff.total', { day: f.day(payoff.day) })),
    fact('interestSaved', t('loan.payoff.saved')),
    fact('available', t('loan.payoff.available')),
  ];
}

/**
 * How much to repay from the balance: in full (today's payoff) or a part typed, its error, and
 * whether the balance is short of it. `review` answers the amount to confirm, or null (and its
 * error shows) when it cannot be paid.
 */
function useRepayAmount(payoff: LoanPayoff) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const [full, setFull] = useState(true);
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const asset = payoff.asset;
  const total = minorOf(payoff.total, asset) ?? 0n;
  const available = minorOf(payoff.available, asset) ?? 0n;
  const check = checkAmount(typed, asset, { max: payoff.total });
  const part = check.minor;
  const error =
    full || (!tried && typed.trim() === '')
      ? undefined
      : amountMessage(check, {
          required: t('loan.amount.invalid', { asset }),
          invalid: t('loan.amount.invalid', { asset }),
          above: t('loan.refusal.atMost', { maximum: f.exact(payoff.total, asset) }),
        });
  const paying = full ? total : (part ?? 0n);
  const short = paying > available;
  const review = (): bigint | null => {
    setTried(true);
    if (!full && (part === null || part <= 0n || part > total)) return null;
    return short ? null : paying;
  };
  return { full, setFull, typed, setTyped, error, short: short && paying > 0n, review };
}

/** In full (today's payoff) or a part. */
function HowMuch({
  payoff,
  full,
  onChange,
}: {
  payoff: LoanPayoff;
  full: boolean;
  onChange: (full: boolean) => void;
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  return (
    <Choice
      legend={t('loan.repay.howMuch')}
      name="repayFull"
      value={full ? 'full' : 'part'}
      options={[
        { value: 'full', label: t('loan.repay.full', { amount: f.exact(payoff.total, payoff.asset) }) },
        { value: 'part', label: t('loan.repay.part') },
      ]}
      onChange={(choice) => onChange(choice === 'full')}
      className="loan-choice"
      optionClassName="loan-option"
    />
  );
}

/** Repay from the balance, in full or in part; a balance short of it says so, with the way to deposit. */
function ByBalance({
  payoff,
  amount,
  whyId,
  onReview,
}: {
  payoff: LoanPayoff;
  amount: ReturnType<typeof useRepayAmount>;
  whyId: string;
  onReview: (paying: Paying) => void;
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const asset = payoff.asset;
  return (
    <form
      className="product-form loan-form"
      data-testid="repay-balance"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const paying = amount.review();
        if (paying !== null) onReview({ amount: paying, full: amount.full, withdraw: false });
      }}
    >
      <HowMuch payoff={payoff} full={amount.full} onChange={amount.setFull} />
      {amount.full ? null : (
        <AmountField
          label={t('loan.repay.partAmount', { asset })}
          name="repayAmount"
          value={amount.typed}
          onChange={amount.setTyped}
          hint={[t('loan.repay.owedToday', { amount: f.exact(payoff.total, asset) })]}
          error={amount.error}
        />
      )}
      {amount.short ? (
        <ShortBalance text={t('loan.refusal.balance')} deposit={t('loan.refusal.deposit')} id={whyId} />
      ) : null}
      <button
        type="submit"
        className="button primary"
        data-testid="repay-review"
        disabled={amount.short}
        aria-describedby={amount.short ? whyId : undefined}
      >
        {t('loan.repay.review')}
      </button>
    </form>
  );
}

/** Within 14 days of the payout: the withdrawal of the agreement, repaying everything now. */
function WithdrawOffer({ payoff, onWithdraw }: { payoff: LoanPayoff; onWithdraw: (paying: Paying) => void }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const total = minorOf(payoff.total, payoff.asset) ?? 0n;
  const available = minorOf(payoff.available, payoff.asset) ?? 0n;
  return (
    <div className="notice product-offer" data-testid="withdraw">
      <p>{t('loan.withdraw.text', { amount: f.exact(payoff.total, payoff.asset) })}</p>
      <button
        type="button"
        className="button ghost"
        disabled={total > available}
        onClick={() => onWithdraw({ amount: total, full: true, withdraw: true })}
      >
        {t('loan.withdraw.button')}
      </button>
    </div>
  );
}

/** From the balance or by a transfer with its proof. */
function MethodChoice({ value, onChange }: { value: Method; onChange: (method: Method) => void }) {
  const { t } = useTranslation();
  return (
    <Choice
      legend={t('loan.repay.method')}
      name="repayMethod"
      value={value}
      options={(['balance', 'proof'] as const).map((method) => ({
        value: method,
        label: t(`loan.repay.by.${method}`),
      }))}
      onChange={onChange}
      className="loan-choice"
      optionClassName="loan-option"
    />
  );
}

type Method = 'balance' | 'proof';

/** The repayment card of today's payoff. */
function RepayCard({ payoff, loanId }: { payoff: LoanPayoff; loanId: number }) {
  const { t } = useTranslation();
  const facts = usePayoffFacts(payoff);
  // Kept while the customer looks at the other method.
  const amount = useRepayAmount(payoff);
  const [method, setMethod] = useState<Method>('balance');
  const [confirming, setConfirming] = useState<Paying | null>(null);
  return (
    <section
      className="card product-card loan-repay"
      id="repay"
      aria-labelledby="loan-repay-title"
      data-testid="loan-repay"
    >
      <div className="product-card-head">
        <h2 id="loan-repay-title">{t('loan.repay.title')}</h2>
        <BookBadge />
      </div>
      <p className="small muted">{t('loan.payoff.note')}</p>
      <Facts facts={facts} testId="payoff" />
      {payoff.withdrawable ? <WithdrawOffer payoff={payoff} onWithdraw={setConfirming} /> : null}
      <MethodChoice value={method} onChange={setMethod} />
      {method === 'balance' ? (
        <ByBalance payoff={payoff} amount={amount} whyId={`repay-why-${loanId}`} onReview={setConfirming} />
      ) : (
        <ByProof payoff={payoff} />
      )}
      {confirming ? (
        <ConfirmRepay payoff={payoff} paying={confirming} onClose={() => setConfirming(null)} />
      ) : null}
    </section>
  );
}

/**
 * Repayment (spec §5): today's payoff (interest of past days only; the days not yet run are never
 * charged), then from the balance, in full or in part, with the confirm dialog showing the
 * allocation; or by a transfer with its proof. Within 14 days of the payout, the withdrawal.
 */
export function Repay({ userId, loanId }: { userId: number; loanId: number }) {
  const query = useQuery(loanQueries.payoff(userId, loanId));
  if (!query.isSuccess) return <QueryState query={query} />;
  return <RepayCard payoff={query.data} loanId={loanId} />;
}
