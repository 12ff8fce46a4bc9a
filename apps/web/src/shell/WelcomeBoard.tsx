import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { endBoot } from '../app/boot.ts';
import { safeReturnPath } from '../app/returnTo.ts';
import { routeMeta } from '../app/routes.ts';
import { setState, useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';
import { arriveAtPage } from './keyboard.ts';
import { LanguageModal } from './LanguagePicker.tsx';

/**
 * Where the board leaves to (spec §2): opened on one of the six tab roots, Continue goes to
 * registration when logged out and home when logged in, and Skip goes home. Opened by a link to
 * another page (`/profile/deposit`), the board leaves to that page: Skip and a logged-in Continue
 * stay on it, and registration returns to it.
 */
function exits(location: { pathname: string; search: string; hash: string }, isLogin: boolean) {
  const link = routeMeta(location.pathname).tabRoot
    ? null
    : `${location.pathname}${location.search}${location.hash}`;
  const back = safeReturnPath(link);
  const register = back
    ? `/pass/register?${new URLSearchParams({ return: back }).toString()}`
    : '/pass/register';
  return { skip: link ?? '/', next: isLogin ? (link ?? '/') : register, link };
}

/** The phone's welcome board: once per browser session, over the page it opened on. */
export default function WelcomeBoard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const isLogin = useClientState((s) => s.isLogin);
  const to = exits(location, isLogin);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [languageOpen, setLanguageOpen] = useState(false);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    endBoot();
  }, []);
  const dismiss = (where: string) => {
    dialog.current?.close();
    setState({ welcomeShown: true });
    if (where !== to.link) {
      navigate(where);
      return;
    }
    // The page beneath is shown as the board goes: focus on its heading, and it is named.
    const title = t(`title.${routeMeta(location.pathname).title}`);
    requestAnimationFrame(() => arriveAtPage(null, () => title));
  };
  return (
    <dialog
      ref={dialog}
      className="welcome-board"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        dismiss(to.skip);
      }}
    >
      <div className="welcome-top">
        <span className="brand" aria-hidden="true">
          SWX
        </span>
        <button
          type="button"
          className="icon-button"
          aria-label={t('language.title')}
          onClick={() => setLanguageOpen(true)}
        >
          <Icon name="globe" />
        </button>
      </div>
      <div className="welcome-body">
        <h1 id={titleId}>{t('welcome.title')}</h1>
        <p id={textId}>{t('welcome.text')}</p>
      </div>
      <div className="welcome-actions">
        <button type="button" className="button primary" onClick={() => dismiss(to.next)}>
          {t('action.continue')}
        </button>
        <button type="button" className="button ghost" onClick={() => dismiss(to.skip)}>
          {t('action.skip')}
        </button>
      </div>
      <LanguageModal open={languageOpen} onClose={() => setLanguageOpen(false)} />
    </dialog>
  );
}
