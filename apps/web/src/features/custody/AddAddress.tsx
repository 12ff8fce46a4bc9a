import { Code, ownershipMessage, type WithdrawalAddress } from '@swx/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { announce } from '../../ui/announce.ts';
import { FormError } from '../../ui/Field.tsx';
import { refusalIssues } from '../../ui/form/useContractForm.ts';
import { walletQueries } from '../transfers/queries.ts';
import { BackToWallet, CustodyPage, UnlockForm, useStepFocus, WithVault } from './parts.tsx';
import type { VaultRecord } from './vault.ts';

/** The network the wallet's EVM address is added on: USDT on the platform's EVM chain (migration 0023). */
export const SELF_CUSTODY_NETWORK = 'USDT-EVM';
const LABEL_MAX = 40;

/** The live book holds withdrawal addresses (the demo book answers 10043): said plainly, with the switch. */
function LiveOnly() {
  const { t } = useTranslation();
  return (
    <section className="card wallet-demo" data-testid="custody-demo" aria-labelledby="custody-demo-title">
      <h2 id="custody-demo-title">{t('custody.add.demoTitle')}</h2>
      <p>{t('custody.add.demo')}</p>
      <BookSwitch />
    </section>
  );
}

/** The address is added once the words are known to be backed up. */
function NeedsBackup() {
  const { t } = useTranslation();
  return (
    <section className="card" data-testid="needs-backup">
      <p>{t('custody.add.needsBackup')}</p>
      <Link className="button primary" to="/profile/wallet/verify">
        {t('custody.backup.verify')}
      </Link>
      <BackToWallet />
    </section>
  );
}

/** The address added: from when it can be withdrawn to. */
function AddressAdded({
  added,
  heading,
}: {
  added: WithdrawalAddress;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <section className="card" aria-labelledby="custody-step" data-testid="address-added">
      <h2 id="custody-step" ref={heading}>
        {t('custody.add.doneTitle')}
      </h2>
      <p>
        <code className="wallet-address" dir="ltr">
          {added.address}
        </code>
      </p>
      <p data-testid="usable-from" data-usable-from={added.usableFrom}>
        {t('custody.add.usableFrom', {
          time: formatDate(language, added.usableFrom, { dateStyle: 'medium', timeStyle: 'short' }),
        })}
      </p>
      <p className="muted small">{t('custody.add.wait')}</p>
      <Link to="/profile/addresses">{t('custody.add.seeAddresses')}</Link>
      <BackToWallet />
    </section>
  );
}

/** The label and the add; the demo book's refusal (10043) and a duplicate address are kept apart. */
function useAddAddress(customerId: number, record: VaultRecord) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState(() => t('custody.add.defaultLabel'));
  const [failure, setFailure] = useState('');
  const [refusedAsDemo, setRefusedAsDemo] = useState(false);
  const [added, setAdded] = useState<WithdrawalAddress | null>(null);
  const submit = async (mnemonic: string) => {
    setFailure('');
    const address = record.addresses.evm;
    // Signed here with the key of these words (its code loaded now); only the address and the
    // signature are sent.
    const { signPersonalMessage } = await import('./keys.ts');
    const signature = signPersonalMessage(mnemonic, ownershipMessage(address, customerId));
    try {
      const result = await callApi('addWithdrawalAddress', {
        body: { network: SELF_CUSTODY_NETWORK, address, label: label.trim().slice(0, LABEL_MAX), signature },
      });
      void queryClient.invalidateQueries({ queryKey: walletQueries.all });
      announce(t('custody.add.doneTitle'));
      setAdded(result);
    } catch (error) {
      if (error instanceof ApiFailure && error.code === Code.LIVE_BOOK_ONLY) setRefusedAsDemo(true);
      else if (refusalIssues(error).some((i) => i.path === 'address' && i.issue === 'duplicate'))
        setFailure(t('custody.add.duplicate'));
      else setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    }
  };
  return { label, setLabel, failure, refusedAsDemo, added, submit };
}

/** The address to add, its label, and the passphrase that opens the words to sign with. */
function AddForm({ record, add }: { record: VaultRecord; add: ReturnType<typeof useAddAddress> }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <>
      <UnlockForm record={record} submitLabel={t('custody.add.submit')} onOpen={add.submit}>
        <p>{t('custody.add.text')}</p>
        <p className="wallet-address" dir="ltr" data-testid="add-address">
          {record.addresses.evm}
        </p>
        <div className="field">
          <label htmlFor={labelId}>{t('custody.add.label')}</label>
          <input
            id={labelId}
            className="control"
            value={add.label}
            maxLength={LABEL_MAX}
            autoComplete="off"
            onChange={(e) => add.setLabel(e.target.value)}
          />
        </div>
        <p className="small muted">{t('custody.add.wait')}</p>
        <FormError message={add.failure} />
      </UnlockForm>
      <BackToWallet />
    </>
  );
}

function AddFlow({ customerId, record }: { customerId: number; record: VaultRecord }) {
  const demo = useClientState((s) => s.virtual === 1);
  const add = useAddAddress(customerId, record);
  const heading = useStepFocus(add.added ? 'added' : 'form');
  if (!record.backupVerified) return <NeedsBackup />;
  if (demo || add.refusedAsDemo) return <LiveOnly />;
  if (add.added) return <AddressAdded added={add.added} heading={heading} />;
  return <AddForm record={record} add={add} />;
}

/** /profile/wallet/withdrawal: sign the ownership message here and add the EVM address (live book only). */
export default function AddAddress() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custodyAdd')} book>
      {(customerId) => (
        <WithVault customerId={customerId}>
          {(record) => <AddFlow customerId={customerId} record={record} />}
        </WithVault>
      )}
    </CustodyPage>
  );
}
