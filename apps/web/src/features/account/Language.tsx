import { LANGUAGE_NAMES } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../../app/state.ts';
import { LanguageOptions } from '../../shell/LanguagePicker.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';

/** Change language: the same list and logic as the shells' language picker, as a page. */
export default function Language() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <AccountPage title={t('title.changeLanguage')}>
      <section className="card narrow">
        <p className="muted">{t('settings.languageText')}</p>
        <LanguageOptions onChosen={() => undefined} />
        <p className="book-message" role="status" aria-live="polite">
          {t('settings.languageHint', { language: LANGUAGE_NAMES[language] })}
        </p>
      </section>
    </AccountPage>
  );
}
