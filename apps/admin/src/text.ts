import {
  interpolate,
  isRtl,
  LANGUAGE_TAGS,
  LANGUAGES,
  type Language,
  languageFromAcceptLanguage,
  type TextValues,
} from '@swx/contract';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import hk from './locales/hk.json';
import it from './locales/it.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';
import zh from './locales/zh.json';

/**
 * Back-office text in the ten languages: locales/<language>.json, typed after English, so a key
 * missing in any language does not compile (the contract's locale test checks placeholders).
 */
export type Text = typeof en;

const TEXT: Record<Language, Text> = { en, ja, ko, de, fr, it, es, ar, hk, zh };

/** Staff read the language they chose here, else the one their browser asks for. */
export function staffLanguage(): Language {
  const stored = localStorage.getItem('adminLanguage');
  const candidates = stored ? [stored] : (navigator.languages ?? [navigator.language]);
  return languageFromAcceptLanguage(candidates.join(','));
}

export function textFor(language: Language): Text {
  return TEXT[language];
}

/** Fills `{{name}}` placeholders: the contract's `interpolate`, the syntax of every app's texts. */
export function fill(template: string, values: TextValues): string {
  return interpolate(template, values);
}

export function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = LANGUAGE_TAGS[language];
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
}

export function formatTime(language: Language, iso: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

export { LANGUAGES };
