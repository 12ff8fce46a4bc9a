import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useClientState } from '../app/state.ts';
import { BookBadge } from '../shell/BookBadge.tsx';
import { LoginLinks } from '../shell/LoginLinks.tsx';
import './account-page.css';

/** Account screens need a session; without one they say so and offer to log in (no route guard, spec §6). */
export function NeedsLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  const { pathname, search } = useLocation();
  if (isLogin) return children;
  // After logging in, the customer comes back to this page.
  const login = `/pass/login?${new URLSearchParams({ return: pathname + search }).toString()}`;
  return (
    <section className="card needs-login">
      <p>{t('auth.loginToSee')}</p>
      <div className="row">
        <LoginLinks login={login} />
      </div>
    </section>
  );
}

/**
 * An account screen. A screen that shows money from a book passes `book`: its title then carries
 * the book badge (demo or live), so the reader always knows which money they are looking at.
 */
export function AccountPage({
  title,
  book = false,
  children,
}: {
  title: string;
  book?: boolean;
  children: ReactNode;
}) {
  const isLogin = useClientState((s) => s.isLogin);
  return (
    <div className="container page">
      {book && isLogin ? (
        <div className="page-head">
          <h1 className="page-title">{title}</h1>
          <BookBadge />
        </div>
      ) : (
        <h1 className="page-title">{title}</h1>
      )}
      <NeedsLogin>{children}</NeedsLogin>
    </div>
  );
}
