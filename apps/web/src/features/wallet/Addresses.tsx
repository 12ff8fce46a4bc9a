import { addWithdrawalAddressBody, type Network, type WithdrawalAddress } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, Field, FormError } from '../../ui/Field.tsx';
import { FormNotice } from '../../ui/FormNotice.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { Modal } from '../../ui/Modal.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { walletQueries } from '../transfers/queries.ts';
import {
  LockState,
  NetworkPicker,
  networkWords,
  useNow,
  WalletLinks,
  WalletPage,
  WithNetworks,
} from './parts.tsx';

/** Remove one address, after a confirm dialog. */
function RemoveAddress({ address }: { address: WithdrawalAddress }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useState('');
  const remove = useMutation({
    mutationFn: () => callApi('removeWithdrawalAddress', { params: { id: address.id } }),
    onSuccess: () => {
      dialog.current?.close();
      announce(t('wallet.addresses.removed'));
      void queryClient.invalidateQueries({ queryKey: walletQueries.all });
    },
    onError: (error) => setFailure(error instanceof ApiFailure ? error.message : t('state.error')),
  });
  const name = address.label || address.address;
  return (
    <>
      <button
        type="button"
        className="button ghost small"
        aria-label={t('wallet.addresses.removeOne', { name })}
        onClick={() => {
          setFailure('');
          dialog.current?.showModal();
        }}
      >
        {t('wallet.addresses.remove')}
      </button>
      <Modal dialogRef={dialog} className="modal" aria-labelledby={titleId} data-testid="remove-dialog">
        <div className="modal-body">
          <h2 id={titleId}>{t('wallet.addresses.removeTitle')}</h2>
          <p>
            {t('wallet.addresses.removeConfirm')}{' '}
            <code dir="ltr" className="wallet-address">
              {address.address}
            </code>
          </p>
          <FormError message={failure} />
          <DialogButtons
            dialog={dialog}
            cancel={t('wallet.confirm.cancel')}
            confirm={t('wallet.addresses.remove')}
            disabled={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      </Modal>
    </>
  );
}

function AddressList({ userId, networks }: { userId: number; networks: Network[] }) {
  const { t } = useTranslation();
  const now = useNow();
  const query = useQuery(walletQueries.addresses(userId));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.addresses.empty')} />;
  const nameOf = (id: string) => {
    const n = networks.find((x) => x.id === id);
    return n ? networkWords(t, n.asset, n) : id;
  };
  return (
    <ul className="wallet-list address-book" data-testid="address-book">
      {query.data.map((a) => (
        <li key={a.id} data-address={a.address.toLowerCase()} className="address-row">
          <div className="address-main">
            <strong>{a.label || t('wallet.addresses.noLabel')}</strong>
            <span className="muted small">{nameOf(a.network)}</span>
            <code dir="ltr" className="wallet-address">
              {a.address}
            </code>
            {a.owned ? (
              <span className="owned-mark product-chip" data-tone="success" data-testid="owned-mark">
                {t('wallet.addresses.owned')}
              </span>
            ) : null}
            <LockState address={a} now={now} />
          </div>
          <RemoveAddress address={a} />
        </li>
      ))}
    </ul>
  );
}

/** A network the platform cannot send on: said before an address of it is added (and waits a day). */
function ClosedNote({ network }: { network: Network | undefined }) {
  const { t } = useTranslation();
  if (!network || network.withdrawable) return null;
  return (
    <p className="wallet-closed-note" data-testid="network-closed">
      {t('wallet.addresses.closed', {
        network: networkWords(t, network.asset, network),
        reason: network.watched ? t('wallet.withdraw.closedPaused') : t('wallet.withdraw.closedNoNode'),
      })}
    </p>
  );
}

function AddAddress({ networks }: { networks: Network[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const initial = { network: networks[0]?.id ?? '', address: '', label: '' };
  const form = useContractForm({
    schema: addWithdrawalAddressBody,
    initial,
    toBody: (values) => values,
    message: (field, issue, values) => {
      if (field === 'address') {
        if (issue === 'too_small') return t('wallet.addresses.required');
        if (issue === 'duplicate') return t('wallet.addresses.duplicate');
        const network = networks.find((n) => n.id === values.network);
        return t('wallet.addresses.badFormat', { network: network?.name ?? values.network });
      }
      if (field === 'label') return t('wallet.addresses.labelTooLong');
      return t('wallet.addresses.required');
    },
    submit: async (body) => {
      await callApi('addWithdrawalAddress', { body });
      void queryClient.invalidateQueries({ queryKey: walletQueries.all });
      form.reset({ ...initial, network: body.network });
      form.setNotice(t('wallet.addresses.added'));
      announce(t('wallet.addresses.added'));
    },
  });
  return (
    <form
      className="card pass-form wallet-form"
      noValidate
      aria-labelledby="add-address-title"
      data-testid="add-address"
      onSubmit={(event) => void form.onSubmit(event)}
    >
      <h2 id="add-address-title">{t('wallet.addresses.addTitle')}</h2>
      <NetworkPicker
        networks={networks}
        value={form.values.network}
        error={form.errors.network}
        onChange={(id) => form.setValue('network', id)}
      />
      <ClosedNote network={networks.find((n) => n.id === form.values.network)} />
      <Field
        label={t('wallet.addresses.address')}
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        {...form.field('address')}
      />
      <Field label={t('wallet.addresses.label')} autoComplete="off" maxLength={40} {...form.field('label')} />
      <p className="small muted">{t('wallet.addresses.lockHint')}</p>
      <FormError message={form.failure} />
      <FormNotice message={form.notice} />
      <SubmitButton busy={form.busy}>{t('wallet.addresses.add')}</SubmitButton>
    </form>
  );
}

/** My withdrawal addresses (/profile/addresses): each with its lock timer; add and remove. */
export default function Addresses() {
  const { t } = useTranslation();
  return (
    <WalletPage title={t('title.addresses')}>
      {(userId) => (
        <div className="wallet-page">
          <WithNetworks userId={userId}>
            {(networks) => (
              <>
                <section className="card" aria-labelledby="address-book-title">
                  <h2 id="address-book-title">{t('wallet.addresses.listTitle')}</h2>
                  <AddressList userId={userId} networks={networks} />
                </section>
                <AddAddress networks={networks} />
              </>
            )}
          </WithNetworks>
          <WalletLinks current="/profile/addresses" />
        </div>
      )}
    </WalletPage>
  );
}
