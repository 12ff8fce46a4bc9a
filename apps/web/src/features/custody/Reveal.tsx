import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackToWallet, CustodyPage, UnlockForm, useStepFocus, WithVault } from './parts.tsx';
import type { VaultRecord } from './vault.ts';

function RevealFlow({ record }: { record: VaultRecord }) {
  const { t } = useTranslation();
  // Shown until hidden or the page is left: the keys live in this state only.
  const [keys, setKeys] = useState<{ evm: string; btc: string } | null>(null);
  const heading = useStepFocus(keys ? 'shown' : 'hidden');
  const warning = (
    <p className="custody-warning" role="note">
      <strong>{t('custody.reveal.warningTitle')}</strong> {t('custody.reveal.warning')}
    </p>
  );
  if (!keys)
    return (
      <>
        <UnlockForm
          record={record}
          submitLabel={t('custody.reveal.show')}
          onOpen={async (m) => setKeys((await import('./keys.ts')).privateKeysOf(m))}
        >
          {warning}
        </UnlockForm>
        <BackToWallet />
      </>
    );
  return (
    <section className="card" aria-labelledby="custody-step" data-testid="revealed">
      <h2 id="custody-step" ref={heading}>
        {t('custody.reveal.title')}
      </h2>
      {warning}
      <dl className="custody-keys">
        <div>
          <dt>{t('custody.reveal.evm')}</dt>
          <dd>
            <code className="wallet-address" dir="ltr" data-testid="key-evm">
              {keys.evm}
            </code>
          </dd>
        </div>
        <div>
          <dt>{t('custody.reveal.btc')}</dt>
          <dd>
            <code className="wallet-address" dir="ltr" data-testid="key-btc">
              {keys.btc}
            </code>
          </dd>
        </div>
      </dl>
      <button type="button" className="button primary" onClick={() => setKeys(null)}>
        {t('custody.reveal.hide')}
      </button>
    </section>
  );
}

/** /profile/wallet/reveal: the private keys, after the passphrase and a warning. */
export default function Reveal() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custodyReveal')}>
      {(customerId) => (
        <WithVault customerId={customerId}>{(record) => <RevealFlow record={record} />}</WithVault>
      )}
    </CustodyPage>
  );
}
