import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormError } from '../../ui/Field.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { BackToWallet, CustodyPage, NewPassphraseForm, TextArea, useStepFocus } from './parts.tsx';
import { ReplacesNotice, useSave } from './save.tsx';
import { mnemonicProblem, normalizeMnemonic } from './words.ts';

const body = z.object({ words: z.string().check(z.trim(), z.minLength(1)) });

/** The words typed from the backup, checked (their checksum) before they are kept. */
function useWordsForm(onWords: (mnemonic: string) => void) {
  const { t } = useTranslation();
  const form = useContractForm({
    schema: body,
    initial: { words: '' },
    toBody: (values) => values,
    message: () => t('custody.restore.enter'),
    check: (values) => {
      if (!values.words.trim()) return {};
      const problem = mnemonicProblem(values.words);
      return problem ? { words: t(`custody.restore.${problem}`) } : {};
    },
    submit: async ({ words }) => {
      onWords(normalizeMnemonic(words));
      form.reset();
    },
  });
  return form;
}

function WordsStep({
  customerId,
  heading,
  onWords,
}: {
  customerId: number;
  heading: RefObject<HTMLHeadingElement | null>;
  onWords: (mnemonic: string) => void;
}) {
  const { t } = useTranslation();
  const form = useWordsForm(onWords);
  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.restore.wordsTitle')}
      </h2>
      <form
        className="card pass-form custody-form"
        noValidate
        data-testid="restore-words"
        onSubmit={(e) => void form.onSubmit(e)}
      >
        <ReplacesNotice customerId={customerId} />
        <TextArea
          label={t('custody.restore.words')}
          hint={t('custody.restore.hint')}
          rows={4}
          dir="ltr"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...form.field('words')}
          onChange={(e) => form.setValue('words', e.target.value)}
        />
        <FormError message={form.failure} />
        <button type="submit" className="button primary large block">
          {t('custody.restore.check')}
        </button>
        <BackToWallet />
      </form>
    </section>
  );
}

function RestoreFlow({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  // The words, once their checksum holds, until they are sealed (or the page is left).
  const [mnemonic, setMnemonic] = useState('');
  const heading = useStepFocus(mnemonic ? 'passphrase' : 'words');
  const save = useSave(customerId);

  if (!mnemonic) return <WordsStep customerId={customerId} heading={heading} onWords={setMnemonic} />;

  return (
    <section aria-labelledby="custody-step" className="custody-step">
      <h2 id="custody-step" ref={heading}>
        {t('custody.passphrase.title')}
      </h2>
      <NewPassphraseForm
        submitLabel={t('custody.restore.save')}
        onChosen={async (passphrase) => {
          // All the words typed from the backup: it is verified, by a restore (the screen says so).
          await save(mnemonic, passphrase, { backupVerified: true, origin: 'restored' });
          setMnemonic('');
        }}
      >
        <p>{t('custody.passphrase.text')}</p>
      </NewPassphraseForm>
    </section>
  );
}

/** /profile/wallet/restore: 12 or 24 words (checksum checked), then a passphrase. */
export default function Restore() {
  const { t } = useTranslation();
  return (
    <CustodyPage title={t('title.custodyRestore')}>
      {(customerId) => <RestoreFlow customerId={customerId} />}
    </CustodyPage>
  );
}
