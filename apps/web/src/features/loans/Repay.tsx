import { Code, type LoanPayoff, loanRepayProofBody } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { minorOf } from '../../app/money.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { AmountField, amountMessage, checkAmount } from '../../ui/product/Amount.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { PayAddress, TxHashField } from '../../ui/product/Transfer.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { ImageInput } from '../uploads/ImageInput.tsx';
import { decimalOf, Refusal, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';

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

/** The confirm step of a repayment from the balance (or a withdrawal): the amount and its allocation. */
function ConfirmRepay({
  payoff,
  amount,
  full,
  withdraw,
  onClose,
}: {
  payoff: LoanPayoff;
  amount: bigint;
  full: boolean;
  withdraw: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const queryClient = useQueryClient();
  const dialog = useModal();
  const asset = payoff.asset;
  const split = allocate(payoff, amount);
  const d = (v: bigint) => decimalOf(v, asset);
  const facts: Fact[] = [
    { name: 'amount', label: t('loan.repay.amount'), value: d(amount), shown: f.exact(d(amount), asset) },
    {
      name: 'lateCost',
      label: t('loan.repay.toLate'),
      value: d(split.lateCost),
      shown: f.exact(d(split.lateCost), asset),
    },
    {
      name: 'interest',
      label: t('loan.repay.toInterest'),
      value: d(split.interest),
      shown: f.exact(d(split.interest), asset),
    },
    {
      name: 'principal',
      label: t('loan.repay.toPrincipal'),
      value: d(split.principal),
      shown: f.exact(d(split.principal), asset),
    },
    { name: 'left', label: t('loan.repay.left'), value: d(split.left), shown: f.exact(d(split.left), asset) },
    {
      name: 'from',
      label: t('loan.repay.from'),
      value: payoff.available,
      shown: t('loan.repay.fromBalance', { amount: f.exact(payoff.available, asset) }),
    },
  ];
  // Once asked, the same request id: a retry after a lost answer pays once. Nothing is renewed here.
  const { busy, failure, submit } = useQuoteCommit({
    first: amount,
    commit: async (_, requestId) => {
      try {
        return withdraw
          ? await callApi('loanWithdraw', { body: { loanId: payoff.loanId, requestId } })
          : await callApi('completeLoan', {
              body: { loanId: payoff.loanId, requestId, full, ...(full ? {} : { amount: d(amount) }) },
            });
      } catch (error) {
        // 10032: another repayment changed what is owed; the figures behind the dialog are asked again.
        if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED)
          void queryClient.invalidateQueries({ queryKey: loanQueries.all });
        throw error;
      }
    },
    onDone: (done) => {
      void queryClient.invalidateQueries({ queryKey: loanQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(
        done.state === 'repaid' || done.state === 'withdrawn'
          ? t('loan.repay.doneAll', { amount: f.exact(d(amount), asset) })
          : t('loan.repay.donePart', { amount: f.exact(d(amount), asset) }),
      );
    },
  });
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
      confirm={busy ? t('loan.repay.paying') : t('loan.repay.confirm', { amount: f.exact(d(amount), asset) })}
      disabled={busy}
    >
      <p className="small muted">{withdraw ? t('loan.withdraw.note') : t('loan.repay.allocationNote')}</p>
      <Facts facts={facts} testId="repay-figures" />
    </QuoteConfirm>
  );
}

/** Repay by a transfer to the platform's repayment address, with the proof staff review. */
function ByProof({ payoff }: { payoff: LoanPayoff }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const queryClient = useQueryClient();
  const [address] = payoff.repayAddresses;
  const [typed, setTyped] = useState('');
  const [txHash, setTxHash] = useState('');
  const [proof, setProof] = useState('');
  const [uploading, setUploading] = useState(false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  // A sent proof's image is taken: the next proof starts with a fresh image input.
  const [round, setRound] = useState(0);
  if (!address) return <p className="notice">{t('loan.proof.noAddress')}</p>;
  const check = checkAmount(typed, payoff.asset);
  const { amount, minor } = check;
  const errors = tried
    ? {
        amount: amountMessage(check, {
          required: t('loan.amount.invalid', { asset: payoff.asset }),
          invalid: t('loan.amount.invalid', { asset: payoff.asset }),
        }),
        txHash: loanRepayProofBody.shape.txHash.safeParse(txHash).success
          ? undefined
          : t('loan.proof.txHashInvalid'),
        proof: proof ? undefined : t('loan.proof.imageRequired'),
      }
    : { amount: undefined, txHash: undefined, proof: undefined };
  const submit = async () => {
    setTried(true);
    setFailure(null);
    const ok =
      minor !== null && minor > 0n && proof && loanRepayProofBody.shape.txHash.safeParse(txHash).success;
    if (!ok || uploading) return;
    setBusy(true);
    try {
      await callApi('loanRepayProof', {
        body: { loanId: payoff.loanId, amount, proof, txHash, address: address.address },
      });
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
  return (
    <form
      className="product-form loan-form loan-proof"
      data-testid="repay-proof"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
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
        value={typed}
        onChange={setTyped}
        hint={[t('loan.repay.owedToday', { amount: f.exact(payoff.total, payoff.asset) })]}
        error={errors.amount}
      />
      <TxHashField label={t('loan.proof.txHash')} value={txHash} error={errors.txHash} onChange={setTxHash} />
      <ImageInput
        key={round}
        purpose="loan_repayment_proof"
        name="proof"
        label={t('loan.proof.image')}
        error={errors.proof}
        onChange={(id) => setProof(id ?? '')}
        onBusyChange={setUploading}
      />
      {failure ? <Refusal error={failure} /> : null}
      <button type="submit" className="button primary" disabled={busy} data-testid="proof-submit">
        {busy ? t('loan.proof.sending') : t('loan.proof.submit')}
      </button>
      <p className="small muted">{t('loan.proof.reviewNote')}</p>
    </form>
  );
}

/**
 * Repayment (spec §5): today's payoff (interest of past days only; the days not yet run are never
 * charged), then from the balance, in full or in part, with the confirm dialog showing the
 * allocation; or by a transfer with its proof. Within 14 days of the payout, the withdrawal.
 */
export function Repay({ userId, loanId }: { userId: number; loanId: number }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const query = useQuery(loanQueries.payoff(userId, loanId));
  const [method, setMethod] = useState<'balance' | 'proof'>('balance');
  const [full, setFull] = useState(true);
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState<{ amount: bigint; full: boolean; withdraw: boolean } | null>(
    null,
  );
  if (!query.isSuccess) return <QueryState query={query} />;
  const payoff = query.data;
  const asset = payoff.asset;
  const total = minorOf(payoff.total, asset) ?? 0n;
  const available = minorOf(payoff.available, asset) ?? 0n;
  const check = checkAmount(typed, asset, { max: payoff.total });
  const part = check.minor;
  const partError =
    full || (!tried && typed.trim() === '')
      ? undefined
      : amountMessage(check, {
          required: t('loan.amount.invalid', { asset }),
          invalid: t('loan.amount.invalid', { asset }),
          above: t('loan.refusal.atMost', { maximum: f.exact(payoff.total, asset) }),
        });
  const paying = full ? total : (part ?? 0n);
  const short = paying > available;
  const facts: Fact[] = [
    {
      name: 'principal',
      label: t('loan.payoff.principal'),
      value: payoff.principal,
      shown: f.exact(payoff.principal, asset),
    },
    {
      name: 'interest',
      label: t('loan.payoff.interest'),
      value: payoff.interest,
      shown: f.exact(payoff.interest, asset),
    },
    {
      name: 'lateCost',
      label: t('loan.payoff.lateCost'),
      value: payoff.lateCost,
      shown: f.exact(payoff.lateCost, asset),
    },
    {
      name: 'total',
      label: t('loan.payoff.total', { day: f.day(payoff.day) }),
      value: payoff.total,
      shown: f.exact(payoff.total, asset),
    },
    {
      name: 'interestSaved',
      label: t('loan.payoff.saved'),
      value: payoff.interestSaved,
      shown: f.exact(payoff.interestSaved, asset),
    },
    {
      name: 'available',
      label: t('loan.payoff.available'),
      value: payoff.available,
      shown: f.exact(payoff.available, asset),
    },
  ];
  const review = () => {
    setTried(true);
    if (!full && (part === null || part <= 0n || part > total)) return;
    if (short) return;
    setConfirming({ amount: paying, full, withdraw: false });
  };
  const whyId = `repay-why-${loanId}`;
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
      {payoff.withdrawable ? (
        <div className="notice loan-withdraw" data-testid="withdraw">
          <p>{t('loan.withdraw.text', { amount: f.exact(payoff.total, asset) })}</p>
          <button
            type="button"
            className="button ghost"
            disabled={total > available}
            onClick={() => setConfirming({ amount: total, full: true, withdraw: true })}
          >
            {t('loan.withdraw.button')}
          </button>
        </div>
      ) : null}
      <fieldset className="loan-choice product-choice">
        <legend>{t('loan.repay.method')}</legend>
        {(['balance', 'proof'] as const).map((value) => (
          <label key={value} className="loan-option product-option">
            <input
              type="radio"
              name="repayMethod"
              value={value}
              checked={method === value}
              onChange={() => setMethod(value)}
            />
            <span>{t(`loan.repay.by.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      {method === 'balance' ? (
        <form
          className="product-form loan-form"
          data-testid="repay-balance"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            review();
          }}
        >
          <fieldset className="loan-choice product-choice">
            <legend>{t('loan.repay.howMuch')}</legend>
            <label className="loan-option product-option">
              <input
                type="radio"
                name="repayFull"
                value="full"
                checked={full}
                onChange={() => setFull(true)}
              />
              <span>{t('loan.repay.full', { amount: f.exact(payoff.total, asset) })}</span>
            </label>
            <label className="loan-option product-option">
              <input
                type="radio"
                name="repayFull"
                value="part"
                checked={!full}
                onChange={() => setFull(false)}
              />
              <span>{t('loan.repay.part')}</span>
            </label>
          </fieldset>
          {full ? null : (
            <AmountField
              label={t('loan.repay.partAmount', { asset })}
              name="repayAmount"
              value={typed}
              onChange={setTyped}
              hint={[t('loan.repay.owedToday', { amount: f.exact(payoff.total, asset) })]}
              error={partError}
            />
          )}
          {short && paying > 0n ? (
            <div className="notice" id={whyId}>
              <p>{t('loan.refusal.balance')}</p>
              <Link to="/profile/deposit">{t('loan.refusal.deposit')}</Link>
            </div>
          ) : null}
          <button
            type="submit"
            className="button primary"
            data-testid="repay-review"
            disabled={short && paying > 0n}
            aria-describedby={short && paying > 0n ? whyId : undefined}
          >
            {t('loan.repay.review')}
          </button>
        </form>
      ) : (
        <ByProof payoff={payoff} />
      )}
      {confirming ? (
        <ConfirmRepay
          payoff={payoff}
          amount={confirming.amount}
          full={confirming.full}
          withdraw={confirming.withdraw}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
