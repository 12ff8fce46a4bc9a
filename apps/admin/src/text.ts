import {
  interpolate,
  isLanguage,
  isRtl,
  LANGUAGE_TAGS,
  LANGUAGES,
  type Language,
  languageFromAcceptLanguage,
  type TextValues,
} from '@swx/contract';

/**
 * A screen's texts in the ten languages from its `locales/<language>.json`, as Vite's eager glob
 * gives them: `byLanguage<typeof import('./locales/en.json')>(import.meta.glob('./locales/*.json',
 * { eager: true, import: 'default' }))`. English is the type; the contract's locale test checks
 * that every language has exactly English's keys and placeholders.
 */
export function byLanguage<T>(files: Record<string, unknown>): Record<Language, T> {
  const texts: Partial<Record<Language, T>> = {};
  for (const [path, file] of Object.entries(files)) {
    const language = /([a-z]+)\.json$/.exec(path)?.[1];
    if (isLanguage(language)) texts[language] = file as T;
  }
  const missing = LANGUAGES.filter((language) => !texts[language]);
  if (missing.length > 0) throw new Error(`no texts for ${missing.join(', ')}`);
  return texts as Record<Language, T>;
}

/** Back-office text in the ten languages: locales/<language>.json, typed after English. */
export type Text = typeof import('./locales/en.json');

const TEXT = byLanguage<Text>(import.meta.glob('./locales/*.json', { eager: true, import: 'default' }));

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
