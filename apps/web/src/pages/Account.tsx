import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../app/state.ts';

/** Account screens need a session; without one they say so and offer to log in (no route guard, spec §6). */
export function NeedsLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  if (isLogin) return children;
  return (
    <section className="card needs-login">
      <p>{t('auth.loginToSee')}</p>
      <div className="row">
        <Link className="button primary" to="/pass/login">
          {t('action.login')}
        </Link>
        <Link className="button ghost" to="/pass/register">
          {t('action.signUp')}
        </Link>
      </div>
    </section>
  );
}

export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="container page">
      <h1 className="page-title">{title}</h1>
      <NeedsLogin>{children}</NeedsLogin>
    </div>
  );
}
