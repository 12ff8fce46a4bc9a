import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { BackToWallet, CustodyPage, NewPassphraseForm, useStepFocus } from './parts.tsx';
import { ReplacesNotice, useSave } from './save.tsx';
import { VerifyWords } from './VerifyWords.tsx';
import { newMnemonic } from './words.ts';

type Step = 'start' | 'words' | 'verify' | 'passphrase';

type Heading = RefObject<HTMLHeadingElement | null>;

/** What the wallet is, and the button that makes its words. */
function StartStep({
  customerId,
  heading,
  onGenerate,
}: {
  customerId: number;
  heading: Heading;
  onGenerate: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.create.startTitle')}
      </h2>
      <p>{t('custody.create.startText')}</p>
      <ReplacesNotice customerId={customerId} />
      <button type="button" className="button primary large block" onClick={onGenerate}>
        {t('custody.create.generate')}
      </button>
      <BackToWallet />
    </section>
  );
}

/** The words, numbered, shown this once to be written down. */
function WordsStep({
  mnemonic,
  heading,
  onWritten,
}: {
  mnemonic: string;
  heading: Heading;
  onWritten: () => void;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <section className="card" aria-labelledby="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.create.wordsTitle')}
      </h2>
      <p className="custody-warning" role="note">
        <strong>{t('custody.create.warningTitle')}</strong> {t('custody.create.warning')}
      </p>
      {/* Styled without list markers, so the list is named one explicitly (Safari drops an
          unmarked list's role), and each word's position is read with it. */}
      <ol
        className="custody-words"
        // biome-ignore lint/a11y/noRedundantRoles: kept by screen readers only when explicit on an unmarked list
        role="list"
        aria-label={t('custody.create.wordsList')}
        data-testid="mnemonic-words"
        dir="ltr"
      >
        {mnemonic.split(' ').map((word, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a phrase may repeat a word; its place is its identity
          <li key={i}>
            <span className="custody-word-number">{formatNumber(language, i + 1)}</span>{' '}
            <span className="custody-word">{word}</span>
          </li>
        ))}
      </ol>
      <button type="button" className="button primary large block" onClick={onWritten}>
        {t('custody.create.written')}
      </button>
    </section>
  );
}

/** Some of the words typed back: passed, left for later, or new words instead. */
function VerifyStep({
  mnemonic,
  heading,
  onPassed,
  onLater,
  onAgain,
}: {
  mnemonic: string;
  heading: Heading;
  onPassed: () => void;
  onLater: () => void;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.verify.title')}
      </h2>
      <VerifyWords mnemonic={mnemonic} onPassed={onPassed}>
        <button type="button" className="link-button" onClick={onLater}>
          {t('custody.verify.later')}
        </button>
        <button type="button" className="link-button" onClick={onAgain}>
          {t('custody.create.again')}
        </button>
      </VerifyWords>
    </section>
  );
}

/** The passphrase the words are sealed under (said plainly when the backup is not verified yet). */
function PassphraseStep({
  verified,
  heading,
  onChosen,
}: {
  verified: boolean;
  heading: Heading;
  onChosen: (passphrase: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.passphrase.title')}
      </h2>
      <NewPassphraseForm submitLabel={t('custody.create.save')} onChosen={onChosen}>
        <p>{t('custody.passphrase.text')}</p>
        {verified ? null : <p className="custody-warning">{t('custody.backup.notVerified')}</p>}
      </NewPassphraseForm>
    </section>
  );
}

function CreateFlow({ customerId }: { customerId: number }) {
  const [step, setStep] = useState<Step>('start');
  // The words live here only, until they are sealed (or the page is left).
  const [mnemonic, setMnemonic] = useState('');
  const [verified, setVerified] = useState(false);
  const heading = useStepFocus(step);
  const save = useSave(customerId);
  const toPassphrase = (passed: boolean) => {
    setVerified(passed);
    setStep('passphrase');
  };

  if (step === 'start')
    return (
      <StartStep
        customerId={customerId}
        heading={heading}
        onGenerate={() => {
          setMnemonic(newMnemonic());
          setStep('words');
        }}
      />
    );
  if (step === 'words')
    return <WordsStep mnemonic={mnemonic} heading={heading} onWritten={() => setStep('verify')} />;
  if (step === 'verify')
    return (
      <VerifyStep
        mnemonic={mnemonic}
        heading={heading}
        onPassed={() => toPassphrase(true)}
        onLater={() => toPassphrase(false)}
        onAgain={() => {
          setMnemonic('');
          setStep('start');
        }}
      />
    );
  return (
    <PassphraseStep
      verified={verified}
      heading={heading}
      onChosen={async (passphrase) => {
        await save(mnemonic, passphrase, { backupVerified: verified, origin: 'created' });
        setMnemonic('');
      }}
    />
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
