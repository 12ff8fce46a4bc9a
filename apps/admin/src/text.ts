import { isRtl, LANGUAGE_TAGS, LANGUAGES, type Language, languageFromAcceptLanguage } from '@swx/contract';
import { ar } from './locales/ar.ts';
import { de } from './locales/de.ts';
import { en, type Text } from './locales/en.ts';
import { es } from './locales/es.ts';
import { fr } from './locales/fr.ts';
import { hk } from './locales/hk.ts';
import { it } from './locales/it.ts';
import { ja } from './locales/ja.ts';
import { ko } from './locales/ko.ts';
import { zh } from './locales/zh.ts';

/** Back-office text in the ten languages (locales/*.ts, one file each, typed after English). */
export type { Text };

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

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
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
