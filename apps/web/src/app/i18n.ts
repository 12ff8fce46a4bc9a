import { isRtl, LANGUAGE_TAGS, type Language } from '@swx/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

/** One file per language; English ships with the app, the others load when chosen. */
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: typeof en }>> = {
  ja: () => import('../locales/ja.json'),
  ko: () => import('../locales/ko.json'),
  de: () => import('../locales/de.json'),
  fr: () => import('../locales/fr.json'),
  it: () => import('../locales/it.json'),
  es: () => import('../locales/es.json'),
  ar: () => import('../locales/ar.json'),
  hk: () => import('../locales/hk.json'),
  zh: () => import('../locales/zh.json'),
};

export const i18n = i18next.createInstance();

export async function initI18n(language: Language): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await switchLanguage(language);
}

/** Loads a language's file once, switches to it and sets `lang` and `dir` on the document. */
export async function switchLanguage(language: Language): Promise<void> {
  if (language !== 'en' && !i18n.hasResourceBundle(language, 'translation')) {
    const module = await loaders[language]();
    i18n.addResourceBundle(language, 'translation', module.default);
  }
  await i18n.changeLanguage(language);
  document.documentElement.lang = LANGUAGE_TAGS[language];
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
}

/** Numbers and dates in the reader's locale. */
export function formatNumber(
  language: Language,
  value: number | bigint,
  options?: Intl.NumberFormatOptions,
): string {
  return new Intl.NumberFormat(LANGUAGE_TAGS[language], options).format(value);
}

export function formatDate(
  language: Language,
  value: Date | string,
  options?: Intl.DateTimeFormatOptions,
): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[language], options ?? { dateStyle: 'medium' }).format(
    new Date(value),
  );
}
