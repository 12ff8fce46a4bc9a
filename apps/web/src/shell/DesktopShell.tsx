import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { routeMeta, TABS } from '../app/routes.ts';
import { useClientState } from '../app/state.ts';
import { Footer } from './Footer.tsx';
import { LanguageDropdown } from './LanguagePicker.tsx';
import { ServiceLink } from './ServiceLink.tsx';
import './shell.css';

export function Logo() {
  const { t } = useTranslation();
  return (
    <Link to="/" className="brand" aria-label={`${t('brand')} — ${t('nav.home')}`}>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path
          d="M8 21l5-6 4 4 7-9"
          fill="none"
          className="brand-mark"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>{t('brand')}</span>
    </Link>
  );
}

/** Desktop: top bar (logo, six tabs, service, language, Login and Sign up when logged out) and footer. */
export function DesktopShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isLogin = useClientState((s) => s.isLogin);
  // The route list says which pages hide the nav and footer (login, register, reset, the social return).
  const chrome = routeMeta(pathname).chrome === undefined;
  return (
    <div className="shell desktop">
      <a className="skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      {chrome ? (
        <header className="top-bar">
          <div className="container top-bar-row">
            <Logo />
            <nav aria-label={t('nav.main')} className="tabs">
              <ul>
                {TABS.map((tab) => (
                  <li key={tab.key}>
                    <NavLink to={tab.path} end={tab.path === '/'}>
                      {t(`nav.${tab.key}`)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="top-actions">
              <ServiceLink />
              <LanguageDropdown />
              {isLogin ? null : (
                <>
                  <Link className="button ghost" to="/pass/login">
                    {t('action.login')}
                  </Link>
                  <Link className="button primary" to="/pass/register">
                    {t('action.signUp')}
                  </Link>
                </>
              )}
            </div>
          </div>
        </header>
      ) : null}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {chrome ? <Footer /> : null}
    </div>
  );
}
