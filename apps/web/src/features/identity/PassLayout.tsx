import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { routeMeta } from '../../app/routes.ts';
import { useClientState } from '../../app/state.ts';
import { Logo } from '../../shell/DesktopShell.tsx';
import { LanguageButton, LanguageDropdown } from '../../shell/LanguagePicker.tsx';
import './identity.css';

/** Login, register and reset: no nav or footer (spec §2), a header of their own with the language picker. */
export function PassLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isDesktop = useClientState((s) => s.isDesktop);
  return (
    <div className="pass-page">
      <header className="pass-head">
        <Logo />
        {isDesktop ? <LanguageDropdown /> : <LanguageButton />}
      </header>
      <div className="pass-card card">
        <h1 className="page-title">{t(`title.${routeMeta(pathname).title}`)}</h1>
        {children}
      </div>
    </div>
  );
}
