import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatNumber } from '../../app/i18n.ts';
import { formatMoney } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { QrCode } from '../../ui/QrCode.tsx';
import type { Addresses } from './keys.ts';
import { BackupState, CopyButton, CustodyPage, useVault } from './parts.tsx';
import { custodyQueries } from './queries.ts';
import { forgetVault } from './store.ts';
import type { VaultRecord } from './vault.ts';

/** No wallet on this device: what it is, and the two ways to get one. */
function NoWallet() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="custody-none-title" data-testid="custody-none">
      <h2 id="custody-none-title">{t('custody.none.title')}</h2>
      <p>{t('custody.none.text')}</p>
      <div className="row">
        <Link className="button primary" to="/profile/wallet/create">
          {t('custody.none.create')}
        </Link>
        <Link className="button ghost" to="/profile/wallet/restore">
          {t('custody.none.restore')}
        </Link>
      </div>
    </section>
  );
}

/** One public address with its QR code and copy button. */
function AddressCard({ kind, address }: { kind: keyof Addresses; address: string }) {
  const { t } = useTranslation();
  const name = t(`custody.address.${kind}`);
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{name}</h2>
      <div className="deposit-address-body">
        <QrCode
          text={address}
          label={t('custody.address.qr', { network: name })}
          className="deposit-qr"
          testId={`custody-qr-${kind}`}
        />
        <div className="deposit-address-text">
          <code className="wallet-address" dir="ltr" data-testid={`custody-address-${kind}`}>
            {address}
          </code>
          <CopyButton
            text={address}
            label={t('custody.address.copy')}
            name={t('custody.address.copyOne', { network: t(`custody.address.${kind}Name`) })}
          />
        </div>
      </div>
    </section>
  );
}

/** What the platform's chain holds at the EVM address: ETH and USDT at a block, or why it cannot say. */
function ChainBalance({ customerId, address }: { customerId: number; address: string }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const query = useQuery(custodyQueries.chainBalance(customerId, address));
  let body: ReactNode;
  if (query.isPending) body = <Loading />;
  else if (query.isError)
    body = <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  else if (!query.data.available)
    body = (
      <p className="muted" data-testid="chain-unavailable">
        {t('custody.balance.noChain')}
      </p>
    );
  else
    body = (
      <>
        <dl className="facts" data-testid="chain-balance">
          {query.data.balances.map((b) => (
            <div key={b.asset} data-asset={b.asset} data-amount={b.amount}>
              <dt>{b.asset}</dt>
              <dd dir="ltr">{`${formatMoney(language, b.amount, b.asset)} ${b.asset}`}</dd>
            </div>
          ))}
        </dl>
        <p className="muted small" data-testid="chain-block">
          {t('custody.balance.block', {
            block: formatNumber(language, BigInt(query.data.block ?? '0'), { useGrouping: false }),
          })}
        </p>
      </>
    );
  return (
    <section className="card" aria-labelledby="custody-balance-title">
      <h2 id="custody-balance-title">{t('custody.balance.title')}</h2>
      <p className="small muted">{t('custody.balance.text')}</p>
      {body}
    </section>
  );
}

/** Forget the wallet on this device, after a dialog that names what it means. */
function Forget({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const forget = async () => {
    setBusy(true);
    try {
      await forgetVault(customerId);
      dialog.current?.close();
      announce(t('custody.forget.done'));
    } catch {
      setFailure(t('custody.storageFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="button ghost danger"
        onClick={() => {
          setFailure('');
          dialog.current?.showModal();
        }}
      >
        {t('custody.forget.open')}
      </button>
      <Modal
        dialogRef={dialog}
        className="modal"
        aria-labelledby={titleId}
        aria-describedby={textId}
        data-testid="forget-dialog"
      >
        <div className="modal-body">
          <h2 id={titleId}>{t('custody.forget.title')}</h2>
          <p id={textId}>{t('custody.forget.text')}</p>
          <FormError message={failure} />
          <DialogButtons
            dialog={dialog}
            cancel={t('custody.forget.cancel')}
            confirm={t('custody.forget.confirm')}
            disabled={busy}
            onConfirm={() => void forget()}
          />
        </div>
      </Modal>
    </>
  );
}

/** The intro says where the words came from: made here, typed in from a backup, or (an older record) not known. */
const INTRO = {
  created: 'custody.intro',
  restored: 'custody.introRestored',
  unknown: 'custody.introKept',
} as const;

function WalletView({ customerId, record }: { customerId: number; record: VaultRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <p className="muted" data-testid="custody-intro">
        {t(INTRO[record.origin ?? 'unknown'])}
      </p>
      <AddressCard kind="evm" address={record.addresses.evm} />
      <ChainBalance customerId={customerId} address={record.addresses.evm} />
      <AddressCard kind="btc" address={record.addresses.btc} />
      <section className="card" aria-labelledby="custody-backup-title">
        <h2 id="custody-backup-title">{t('custody.backup.title')}</h2>
        <BackupState record={record} />
        {record.backupVerified ? null : (
          <button type="button" className="button primary" onClick={() => navigate('/profile/wallet/verify')}>
            {t('custody.backup.verify')}
          </button>
        )}
      </section>
      <nav className="card custody-actions" aria-label={t('custody.actions')}>
        <ul>
          <li>
            <Link to="/profile/wallet/withdrawal">{t('title.custodyAdd')}</Link>
          </li>
          <li>
            <Link to="/profile/wallet/reveal">{t('title.custodyReveal')}</Link>
          </li>
          <li>
            <Link to="/profile/addresses">{t('title.addresses')}</Link>
          </li>
        </ul>
      </nav>
      <Forget customerId={customerId} />
    </>
  );
}

/** /profile/wallet: the wallet on this device (addresses, on-chain balance, backup, actions), or how to get one. */
export default function Overview() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custody')}>
      {(customerId) => <OverviewBody customerId={customerId} />}
    </CustodyPage>
  );
}

function OverviewBody({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const vault = useVault(customerId);
  if (vault.status === 'loading') return <Loading />;
  if (vault.status === 'failed')
    return <Failed message={t('custody.storageFailed')} onRetry={vault.reload} />;
  if (vault.status === 'none') return <NoWallet />;
  return <WalletView customerId={customerId} record={vault.record} />;
}
