import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { isLoginCallback, isPassPage, isTabRoot, routeMeta, TABS } from '../app/routes.ts';
import { useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';
import { LanguageButton } from './LanguagePicker.tsx';
import { ServiceLink } from './ServiceLink.tsx';
import { WelcomeBoard } from './WelcomeBoard.tsx';

/**
 * Mobile: top bar (back away from the six tab roots, title, language, bell when logged in,
 * service, Login when logged out), bottom tab bar, and the welcome board once per session.
 */
export function MobileShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isLogin = useClientState((s) => s.isLogin);
  const welcomeShown = useClientState((s) => s.welcomeShown);
  const pass = isPassPage(pathname);
  const callback = isLoginCallback(pathname);
  const title = t(`title.${routeMeta(pathname).title}`);
  return (
    <div className="shell mobile">
      {pass ? null : (
        <header className="mobile-bar">
          <div className="mobile-bar-start">
            {isTabRoot(pathname) ? null : (
              <button
                type="button"
                className="icon-button flip-rtl"
                aria-label={t('action.back')}
                onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}
              >
                <Icon name="back" />
              </button>
            )}
          </div>
          <h1 className="mobile-title">{title}</h1>
          <div className="mobile-bar-end">
            <LanguageButton />
            {isLogin ? (
              <Link className="icon-button" to="/profile/notification" aria-label={t('a11y.notifications')}>
                <Icon name="bell" />
              </Link>
            ) : null}
            <ServiceLink />
            {isLogin ? null : (
              <Link className="button primary small" to="/pass/login">
                {t('action.login')}
              </Link>
            )}
          </div>
        </header>
      )}
      <main id="main" tabIndex={-1} className={pass || callback ? 'no-tab-bar' : undefined}>
        {children}
      </main>
      {pass || callback ? null : (
        <nav className="tab-bar" aria-label={t('nav.tabBar')}>
          <ul>
            {TABS.map((tab) => (
              <li key={tab.key}>
                <NavLink to={tab.path} end={tab.path === '/'}>
                  <Icon name={tab.key} />
                  <span>{t(`nav.${tab.key}`)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {welcomeShown ? null : <WelcomeBoard />}
    </div>
  );
}
