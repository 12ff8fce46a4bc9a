import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { Loading } from '../../ui/PageState.tsx';
import { addressesOf, newMnemonic } from './keys.ts';
import { BackToWallet, CustodyPage, NewPassphraseForm, useStepFocus, useVault } from './parts.tsx';
import { saveVault } from './store.ts';
import { VerifyWords } from './VerifyWords.tsx';
import { sealVault } from './vault.ts';

type Step = 'start' | 'words' | 'verify' | 'passphrase';

/** Says that a wallet already on this device is replaced (its words, if written down, still restore it). */
export function ReplacesNotice({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const vault = useVault(customerId);
  if (vault.status === 'loading') return <Loading />;
  return vault.status === 'ready' ? (
    <p className="custody-warning" data-testid="replaces">
      {t('custody.replaces')}
    </p>
  ) : null;
}

/**
 * Seals the words under a passphrase, stores them for this customer, and goes to the wallet. The
 * words leave the component's state with it.
 */
export function useSave(customerId: number) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return async (mnemonic: string, passphrase: string, backupVerified: boolean) => {
    const record = await sealVault({
      customerId,
      mnemonic,
      passphrase,
      addresses: addressesOf(mnemonic),
      backupVerified,
    });
    await saveVault(record);
    announce(t('custody.saved'));
    navigate('/profile/wallet', { replace: true });
  };
}

function CreateFlow({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const [step, setStep] = useState<Step>('start');
  // The words live here only, until they are sealed (or the page is left).
  const [mnemonic, setMnemonic] = useState('');
  const [verified, setVerified] = useState(false);
  const heading = useStepFocus(step);
  const save = useSave(customerId);

  if (step === 'start')
    return (
      <section className="card" aria-labelledby="custody-step">
        <h2 id="custody-step" ref={heading}>
          {t('custody.create.startTitle')}
        </h2>
        <p>{t('custody.create.startText')}</p>
        <ReplacesNotice customerId={customerId} />
        <button
          type="button"
          className="button primary large block"
          onClick={() => {
            setMnemonic(newMnemonic());
            setStep('words');
          }}
        >
          {t('custody.create.generate')}
        </button>
        <BackToWallet />
      </section>
    );

  if (step === 'words')
    return (
      <section className="card" aria-labelledby="custody-step">
        <h2 id="custody-step" ref={heading}>
          {t('custody.create.wordsTitle')}
        </h2>
        <p className="custody-warning" role="note">
          <strong>{t('custody.create.warningTitle')}</strong> {t('custody.create.warning')}
        </p>
        <ol
          className="custody-words"
          aria-label={t('custody.create.wordsList')}
          data-testid="mnemonic-words"
          dir="ltr"
        >
          {mnemonic.split(' ').map((word, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a phrase may repeat a word; its place is its identity
            <li key={i}>
              <span className="custody-word-number" aria-hidden="true">
                {formatNumber(language, i + 1)}
              </span>
              <span className="custody-word">{word}</span>
            </li>
          ))}
        </ol>
        <button type="button" className="button primary large block" onClick={() => setStep('verify')}>
          {t('custody.create.written')}
        </button>
      </section>
    );

  if (step === 'verify')
    return (
      <section aria-labelledby="custody-step" className="custody-step">
        <h2 id="custody-step" ref={heading}>
          {t('custody.verify.title')}
        </h2>
        <VerifyWords
          mnemonic={mnemonic}
          onPassed={() => {
            setVerified(true);
            setStep('passphrase');
          }}
        >
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setVerified(false);
              setStep('passphrase');
            }}
          >
            {t('custody.verify.later')}
          </button>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setMnemonic('');
              setStep('start');
            }}
          >
            {t('custody.create.again')}
          </button>
        </VerifyWords>
      </section>
    );

  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.passphrase.title')}
      </h2>
      <NewPassphraseForm
        submitLabel={t('custody.create.save')}
        onChosen={async (passphrase) => {
          await save(mnemonic, passphrase, verified);
          setMnemonic('');
        }}
      >
        <p>{t('custody.passphrase.text')}</p>
        {verified ? null : <p className="custody-warning">{t('custody.backup.notVerified')}</p>}
      </NewPassphraseForm>
    </section>
  );
}

/** /profile/wallet/create: 12 new words, shown once, checked, sealed under a passphrase. */
export default function Create() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custodyCreate')}>
      {(customerId) => <CreateFlow customerId={customerId} />}
    </CustodyPage>
  );
}
