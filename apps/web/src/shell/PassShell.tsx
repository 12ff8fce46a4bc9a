import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../app/state.ts';
import { useBarSizes } from './barSizes.ts';
import { Logo } from './DesktopShell.tsx';
import { LanguageButton, LanguageDropdown } from './LanguagePicker.tsx';
import { WelcomeBoard } from './WelcomeBoard.tsx';
import './shell.css';

/**
 * Login, register and reset: no tabs, footer or tab bar (spec §2), yet the same landmarks as every
 * page: a banner with a navigation (the logo, home) and the language picker, then the main region
 * with the skip link to it.
 */
export function PassShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const isDesktop = useClientState((s) => s.isDesktop);
  const welcomeShown = useClientState((s) => s.welcomeShown);
  useBarSizes('pass');
  return (
    <div className="shell pass-page">
      <a className="skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <header className="pass-head">
        <nav aria-label={t('nav.main')}>
          <Logo />
        </nav>
        {isDesktop ? <LanguageDropdown /> : <LanguageButton />}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {isDesktop || welcomeShown ? null : <WelcomeBoard />}
    </div>
  );
}
