import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../app/state.ts';
import { Icon } from './icons.tsx';
import { changeLanguage } from './language.ts';

/** The language list: the dropdown, the mobile modal and the Change language page all use it. */
export function LanguageOptions({ onChosen }: { onChosen: () => void }) {
  const current = useClientState((s) => s.language);
  const { t } = useTranslation();
  return (
    <ul className="language-options" aria-label={t('a11y.languageList')}>
      {LANGUAGES.map((language: Language) => (
        <li key={language}>
          <button
            type="button"
            lang={LANGUAGE_TAGS[language]}
            aria-current={language === current ? 'true' : undefined}
            data-language={language}
            onClick={() => {
              onChosen();
              void changeLanguage(language);
            }}
          >
            {LANGUAGE_NAMES[language]}
            {language === current ? <span aria-hidden="true"> ✓</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Desktop: a dropdown under the top bar's language button. */
export function LanguageDropdown() {
  const { t } = useTranslation();
  const current = useClientState((s) => s.language);
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    // The menu also closes when focus leaves it (Tab past the last language, or Shift+Tab away).
    const onFocusOut = (event: FocusEvent) => {
      if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
    };
    const element = root.current;
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    element?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      element?.removeEventListener('focusout', onFocusOut);
    };
  }, [open]);
  return (
    <div className="language-dropdown" ref={root}>
      {' '}
      <button
        type="button"
        className="icon-button language-button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('a11y.changeLanguage', { language: LANGUAGE_NAMES[current] })}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name="globe" />
        <span className="language-current">{LANGUAGE_NAMES[current]}</span>
        <Icon name="chevron" size={16} />
      </button>
      <div id={id} className="language-menu" hidden={!open}>
        <LanguageOptions
          onChosen={() => {
            // The chosen option hides with the menu: focus goes back to the button that opened it.
            setOpen(false);
            root.current?.querySelector<HTMLButtonElement>('button')?.focus();
          }}
        />
      </div>
    </div>
  );
}

/** Mobile: a modal dialog. */
export function LanguageModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="modal language-modal" aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-head">
        <h2 id={titleId}>{t('language.choose')}</h2>
        <button type="button" className="icon-button" aria-label={t('action.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <LanguageOptions onChosen={onClose} />
    </dialog>
  );
}

export function LanguageButton() {
  const { t } = useTranslation();
  const current = useClientState((s) => s.language);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-button language-button"
        aria-label={t('a11y.changeLanguage', { language: LANGUAGE_NAMES[current] })}
        onClick={() => setOpen(true)}
      >
        <Icon name="globe" />
      </button>
      <LanguageModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}
