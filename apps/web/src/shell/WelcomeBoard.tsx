import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { endBoot } from '../app/boot.ts';
import { setState, useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';
import { LanguageModal } from './LanguagePicker.tsx';

/**
 * The mobile welcome board: once per browser session. Continue goes to registration when logged
 * out and home when logged in; Skip goes home (spec §2).
 */
export default function WelcomeBoard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isLogin = useClientState((s) => s.isLogin);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [languageOpen, setLanguageOpen] = useState(false);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    endBoot();
  }, []);
  const dismiss = (to: string) => {
    dialog.current?.close();
    setState({ welcomeShown: true });
    navigate(to);
  };
  return (
    <dialog
      ref={dialog}
      className="welcome-board"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        dismiss('/');
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
        <button
          type="button"
          className="button primary"
          onClick={() => dismiss(isLogin ? '/' : '/pass/register')}
        >
          {t('action.continue')}
        </button>
        <button type="button" className="button ghost" onClick={() => dismiss('/')}>
          {t('action.skip')}
        </button>
      </div>
      <LanguageModal open={languageOpen} onClose={() => setLanguageOpen(false)} />
    </dialog>
  );
}
