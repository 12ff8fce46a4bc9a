import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { routeMeta } from '../../app/routes.ts';
import { useClientState } from '../../app/state.ts';
import { Logo } from '../../shell/DesktopShell.tsx';
import { LanguageButton, LanguageDropdown } from '../../shell/LanguagePicker.tsx';
import './identity.css';

/**
 * Login, register and reset: the card with the page's title; the shell (PassShell) gives them a
 * banner with the logo and the language picker. The social sign-in return page, in the ordinary
 * shell, brings that header itself.
 */
export function PassLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isDesktop = useClientState((s) => s.isDesktop);
  const route = routeMeta(pathname);
  const card = (
    <div className="pass-card card">
      <h1 className="page-title">{t(`title.${route.title}`)}</h1>
      {children}
    </div>
  );
  if (route.chrome === 'pass') return card;
  return (
    <div className="pass-page">
      <header className="pass-head">
        <Logo />
        {isDesktop ? <LanguageDropdown /> : <LanguageButton />}
      </header>
      {card}
    </div>
  );
}
