import {
  Code,
  type Deposit as DepositRecord,
  type DepositState,
  type Network,
  rechargeBody,
} from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { FormNotice } from '../../ui/FormNotice.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QrCode } from '../../ui/QrCode.tsx';
import { walletQueries } from '../transfers/queries.ts';
import { ImageInput } from '../uploads/ImageInput.tsx';
import {
  CopyButton,
  DepositProgress,
  isBelow,
  NetworkPicker,
  networkWords,
  StateWord,
  useWalletFormat,
  WalletLinks,
  WalletPage,
  WithNetworks,
} from './parts.tsx';

/** My address on a network: the text, its QR code and a copy button. */
function AddressCard({ network, address }: { network: Network; address: string }) {
  const { t } = useTranslation();
  return (
    <section className="card deposit-address" aria-labelledby="deposit-address-title">
      <h2 id="deposit-address-title">{t('wallet.deposit.addressTitle', { asset: network.asset })}</h2>
      <div className="deposit-address-body">
        <QrCode
          text={address}
          label={t('wallet.deposit.qrLabel', { asset: network.asset, network: network.name })}
          className="deposit-qr"
          testId="deposit-qr"
        />
        <div className="deposit-address-text">
          <p className="muted small">
            {t('wallet.deposit.sendOnly', { asset: network.asset, network: network.name })}
          </p>
          <code className="wallet-address" dir="ltr" data-testid="deposit-address">
            {address}
          </code>
          <CopyButton text={address} label={t('wallet.deposit.copy')} />
        </div>
      </div>
    </section>
  );
}

/** What the network asks of a deposit: its minimum, the confirmations and their times. */
function NetworkTerms({ network }: { network: Network }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const afterConfirmations = (count: number) =>
    t('wallet.deposit.afterConfirmations', {
      done: f.count(count),
      eta: f.wait(count * network.blockSeconds),
    });
  const credit: Fact[] = network.watched
    ? [
        {
          name: 'credit',
          label: t('wallet.deposit.credited'),
          shown: afterConfirmations(network.creditConfirmations),
        },
        {
          name: 'unlock',
          label: t('wallet.deposit.withdrawable'),
          shown: afterConfirmations(network.unlockConfirmations),
        },
      ]
    : [{ name: 'proof', label: t('wallet.deposit.credited'), shown: t('wallet.deposit.byProof') }];
  return (
    <Facts
      mark="fact"
      testId="deposit-terms"
      facts={[
        {
          name: 'minimum',
          label: t('wallet.deposit.minimum'),
          shown: f.exact(network.depositMinimum, network.asset),
        },
        ...credit,
      ]}
    />
  );
}

/** States of a deposit still on its way; below the minimum is final (not credited), so not among them. */
const ON_THE_WAY: readonly DepositState[] = ['confirming', 'credited', 'pending_review'];

/**
 * The deposits followed on this page that became withdrawable while it was open: kept in the list
 * with their new state, and said once (the customer also gets a notice).
 */
function useBecameWithdrawable(deposits: readonly DepositRecord[] | undefined): ReadonlySet<number> {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const followed = useRef(new Set<number>());
  const [arrived, setArrived] = useState<ReadonlySet<number>>(new Set());
  // The words in the reader's language now; the effect runs on a new list only.
  const say = useRef<(d: DepositRecord) => string>(() => '');
  say.current = (d) => t('wallet.deposit.nowWithdrawable', { amount: f.money(d.amount, d.asset) });
  useEffect(() => {
    if (!deposits) return;
    const now = deposits.filter((d) => d.state === 'available' && followed.current.has(d.id));
    for (const d of deposits)
      if (d.state === 'confirming' || d.state === 'credited') followed.current.add(d.id);
    if (now.length === 0) return;
    for (const d of now) {
      followed.current.delete(d.id);
      announce(say.current(d));
    }
    setArrived((before) => new Set([...before, ...now.map((d) => d.id)]));
  }, [deposits]);
  return arrived;
}

/** Deposits still on their way (confirming, or credited and not yet withdrawable, or in review). */
function PendingDeposits({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const query = useQuery(walletQueries.deposits(userId));
  const arrived = useBecameWithdrawable(query.data);
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  const pending = query.data.filter((d) => ON_THE_WAY.includes(d.state) || arrived.has(d.id));
  return (
    <section className="card" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('wallet.deposit.pendingTitle')}</h2>
      {pending.length === 0 ? (
        <p className="muted">{t('wallet.deposit.noPending')}</p>
      ) : (
        <ul className="wallet-list" data-testid="pending-deposits">
          {pending.map((d) => (
            <li key={d.id} data-deposit={d.id} data-state={d.state}>
              <strong>{f.money(d.amount, d.asset)}</strong> <StateWord kind="deposit" state={d.state} />
              <br />
              <DepositProgress deposit={d} />
            </li>
          ))}
        </ul>
      )}
      <p className="small">
        <Link to="/profile/deposits">{t('wallet.deposit.allDeposits')}</Link>
      </p>
    </section>
  );
}

/**
 * The proof form over `recharge`: below the network's minimum is said under the amount (checked
 * here, and as the server refuses it). Sent, the form starts again, with a new image input (the
 * last image is not shown again).
 */
function useProofForm(network: Network, address: string) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const queryClient = useQueryClient();
  const [round, setRound] = useState(0);
  const belowMinimum = t('wallet.proof.belowMinimum', {
    minimum: f.exact(network.depositMinimum, network.asset),
    asset: network.asset,
  });
  const initial = { amount: '', txHash: '', lastSix: '', proof: '', address };
  const form = useContractForm({
    schema: rechargeBody,
    initial,
    toBody: (values) => ({ ...values, network: network.id }),
    message: (field, issue) => {
      if (field === 'proof') return t('wallet.proof.proofMissing');
      if (issue === 'too_small' || issue === 'too_big') return t('wallet.proof.required');
      return t(`wallet.proof.invalid.${field}`);
    },
    check: (values) =>
      isBelow(values.amount, network.depositMinimum, network.asset) ? { amount: belowMinimum } : {},
    codeFields: { [Code.TRANSACTION_ALREADY_USED]: 'txHash' },
    submit: async (body) => {
      try {
        await callApi('recharge', { body });
      } catch (error) {
        // Below the minimum: said with the network's minimum and asset, under the amount.
        if (error instanceof ApiFailure && error.code === Code.BELOW_MINIMUM) {
          form.setErrors({ amount: belowMinimum });
          return;
        }
        throw error;
      }
      void queryClient.invalidateQueries({ queryKey: walletQueries.all });
      form.reset({ ...initial });
      setRound((r) => r + 1);
      form.setNotice(t('wallet.proof.sent'));
      announce(t('wallet.proof.sent'));
    },
  });
  return { form, round };
}

/** The manual deposit (spec `recharge`): amount, hash, last six, proof image and receiving address. */
function ProofForm({ network, address }: { network: Network; address: string }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const { form, round } = useProofForm(network, address);
  const [uploading, setUploading] = useState(false);
  return (
    <form
      className="card pass-form wallet-form"
      noValidate
      aria-labelledby="proof-title"
      data-testid="proof-form"
      onSubmit={(event) => void form.onSubmit(event)}
    >
      <h2 id="proof-title">{t('wallet.proof.title')}</h2>
      <p className="muted small">{t('wallet.proof.intro', { asset: network.asset })}</p>
      <Field
        label={t('wallet.proof.amount', { asset: network.asset })}
        inputMode="decimal"
        autoComplete="off"
        hint={t('wallet.proof.amountHint', { minimum: f.exact(network.depositMinimum, network.asset) })}
        {...form.field('amount')}
      />
      <Field
        label={t('wallet.proof.txHash')}
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        {...form.field('txHash')}
      />
      <Field
        label={t('wallet.proof.lastSix')}
        hint={t('wallet.proof.lastSixHint')}
        dir="ltr"
        autoComplete="off"
        maxLength={6}
        {...form.field('lastSix')}
      />
      <Field label={t('wallet.proof.address')} dir="ltr" autoComplete="off" {...form.field('address')} />
      <ImageInput
        key={round}
        purpose="deposit_proof"
        name="proof"
        label={t('wallet.proof.image')}
        error={form.errors.proof}
        onChange={(id) => form.setValue('proof', id ?? '')}
        onBusyChange={setUploading}
      />
      <FormError message={form.failure} />
      <FormNotice message={form.notice} />
      <SubmitButton busy={form.busy} disabled={uploading}>
        {form.busy ? t('wallet.proof.sending') : t('wallet.proof.submit')}
      </SubmitButton>
    </form>
  );
}

function DepositNetwork({ userId, network }: { userId: number; network: Network }) {
  const query = useQuery(walletQueries.depositAddress(userId, network.id));
  return (
    <>
      <section className="card">
        <NetworkTerms network={network} />
      </section>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Failed message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <AddressCard network={network} address={query.data.address} />
          <PendingDeposits userId={userId} />
          <ProofForm key={network.id} network={network} address={query.data.address} />
        </>
      )}
    </>
  );
}

function DepositScreen({ userId, networks }: { userId: number; networks: Network[] }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  // The chain the platform follows comes first (credited by itself); a proof-only one after.
  const [chosen, setChosen] = useState((networks.find((n) => n.watched) ?? networks[0])?.id ?? '');
  const network = networks.find((n) => n.id === chosen) ?? networks[0];
  if (!network) return null;
  // Another network is another address and minimum: said, as the page changes under the picker.
  const choose = (id: string) => {
    setChosen(id);
    const next = networks.find((n) => n.id === id);
    if (next)
      announce(
        t('wallet.deposit.networkChanged', {
          network: networkWords(t, next.asset, next),
          minimum: f.exact(next.depositMinimum, next.asset),
        }),
      );
  };
  return (
    <div className="wallet-page">
      <section className="card">
        <NetworkPicker networks={networks} value={network.id} onChange={choose} />
      </section>
      <DepositNetwork userId={userId} network={network} />
      <WalletLinks current="/profile/deposit" />
    </div>
  );
}

/** Deposit (/profile/deposit): pick a network, send to my address, or declare a deposit with a proof. */
export default function Deposit() {
  const { t } = useTranslation();
  return (
    <WalletPage title={t('title.deposit')}>
      {(userId) => (
        <WithNetworks userId={userId}>
          {(networks) => <DepositScreen userId={userId} networks={networks} />}
        </WithNetworks>
      )}
    </WalletPage>
  );
}
