import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { announce } from '../../ui/announce.ts';
import { BackToWallet, BackupState, CustodyPage, UnlockForm, useStepFocus, WithVault } from './parts.tsx';
import { saveVault } from './store.ts';
import { VerifyWords } from './VerifyWords.tsx';
import type { VaultRecord } from './vault.ts';

function VerifyFlow({ record }: { record: VaultRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mnemonic, setMnemonic] = useState('');
  const heading = useStepFocus(mnemonic ? 'words' : 'unlock');
  if (record.backupVerified)
    return (
      <section className="card">
        <BackupState record={record} />
        <BackToWallet />
      </section>
    );
  if (!mnemonic)
    return (
      <UnlockForm record={record} submitLabel={t('custody.passphrase.unlock')} onOpen={setMnemonic}>
        <p>{t('custody.verify.unlockText')}</p>
      </UnlockForm>
    );
  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.verify.title')}
      </h2>
      <VerifyWords
        mnemonic={mnemonic}
        onPassed={async () => {
          // Only a wallet made here is unverified (a restore is verified): the words came by creation.
          await saveVault({ ...record, backupVerified: true, origin: record.origin ?? 'created' });
          setMnemonic('');
          announce(t('custody.verify.done'));
          navigate('/profile/wallet', { replace: true });
        }}
      />
    </section>
  );
}

/** /profile/wallet/verify: a backup check later (passphrase, then three words). */
export default function Verify() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custodyVerify')}>
      {(customerId) => (
        <WithVault customerId={customerId}>{(record) => <VerifyFlow record={record} />}</WithVault>
      )}
    </CustodyPage>
  );
}
