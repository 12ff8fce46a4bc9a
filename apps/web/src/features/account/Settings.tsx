import { LANGUAGE_NAMES } from '@swx/contract';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { kycTexts } from '../kyc/texts.ts';
import './account.css';

/** Settings: change password, change language, security, account verification. */
export default function Settings() {
  use(kycTexts);
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <AccountPage title={t('title.settings')}>
      <nav className="card account-links settings-links" aria-label={t('title.settings')}>
        <ul>
          <li>
            <Link to="/profile/password">
              <span className="settings-link-title">{t('title.changePassword')}</span>
              <span className="muted small">{t('settings.passwordHint')}</span>
            </Link>
          </li>
          <li>
            <Link to="/profile/language">
              <span className="settings-link-title">{t('title.changeLanguage')}</span>
              <span className="muted small">
                {t('settings.languageHint', { language: LANGUAGE_NAMES[language] })}
              </span>
            </Link>
          </li>
          <li>
            <Link to="/profile/security">
              <span className="settings-link-title">{t('title.security')}</span>
              <span className="muted small">{t('settings.securityHint')}</span>
            </Link>
          </li>
          <li>
            <Link to="/profile/verification">
              <span className="settings-link-title">{t('title.verification')}</span>
              <span className="muted small">{t('kyc.settingsHint')}</span>
            </Link>
          </li>
        </ul>
      </nav>
    </AccountPage>
  );
}
