import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../app/state.ts';
import { Logo } from './DesktopShell.tsx';
import { LanguageButton, LanguageDropdown } from './LanguagePicker.tsx';
import './shell.css';

/** The welcome board is shown once per session, on a phone: its own chunk. */
const WelcomeBoard = lazy(() => import('./WelcomeBoard.tsx'));
/**
 * Login, register and reset: no tabs, footer or tab bar (spec §2), yet the same landmarks as every
 * page: a banner with a navigation (the logo, home) and the language picker, then the main region
 * with the skip link to it.
 */
export default function PassShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const isDesktop = useClientState((s) => s.isDesktop);
  const board = useClientState((s) => s.isPhone && !s.welcomeShown);
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
      {board ? (
        <Suspense fallback={null}>
          <WelcomeBoard />
        </Suspense>
      ) : null}
    </div>
  );
}
