import { isLanguage, isRtl, LANGUAGE_TAGS, type Language } from '@swx/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { numberFormat } from './numberFormat.ts';

/**
 * One file per language; English ships with the app, the others load when chosen. Their shapes
 * differ only by plural forms (a language has the categories it needs: Japanese only _other,
 * Arabic _zero to _other); the locale test checks every file against English.
 */
export type Texts = { [key: string]: string | Texts };
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Texts }>> = {
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

/**
 * `{{count, number}}` in a text: the number in the reader's locale. i18next passes its language
 * code (ours, like `hk`), not a locale tag, so the tag is looked up here. Counts go to t() as
 * numbers, so i18next also picks the language's plural form (_zero, _one, _two, _few, _many,
 * _other).
 */
export function formatNumberFor(lng: string | undefined, value: number | bigint): string {
  return numberFormat(isLanguage(lng) ? LANGUAGE_TAGS[lng] : 'en').format(value);
}

/** Makes `{{x, number}}` format with the locale of our language code. */
export function installLocaleNumbers(instance: typeof i18n): void {
  instance.services.formatter?.add('number', (value: number | bigint, lng: string | undefined) =>
    formatNumberFor(lng, value),
  );
}

export async function initI18n(language: Language): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  installLocaleNumbers(i18n);
  await switchLanguage(language);
}

/**
 * A feature's own texts (its `locales/<language>.json`), which load with its chunk rather than
 * with the app: the loader of one language, and the languages already added.
 */
type FeatureTexts = { load: (language: Language) => Promise<Texts>; added: Set<Language> };
const featureTexts: FeatureTexts[] = [];
/**
 * The language the app is in or switching to: a feature whose chunk arrives while a switch is under
 * way (its texts not yet in the switch's list) adds this one's texts, not those of the language
 * i18next still shows until the switch ends.
 */
let wanted: Language = 'en';

async function addFeature(feature: FeatureTexts, language: Language): Promise<void> {
  if (feature.added.has(language)) return;
  // Merged into the language's one bundle: the feature's keys sit beside the app's.
  i18n.addResourceBundle(language, 'translation', await feature.load(language), true, false);
  feature.added.add(language);
}

/** The feature texts registered and not yet added (a chunk's, while its file is on the way). */
const arriving = new Set<Promise<void>>();

/**
 * Registers a lazy feature's texts: they are added for the current language now (the feature's
 * screens wait for the promise, e.g. with React's `use`, so they never render before their
 * texts), and for each language the reader switches to, before the switch.
 */
export function addFeatureTexts(load: (language: Language) => Promise<Texts>): Promise<void> {
  const feature: FeatureTexts = { load, added: new Set() };
  featureTexts.push(feature);
  const adding = addFeature(feature, wanted);
  arriving.add(adding);
  const gone = () => void arriving.delete(adding);
  adding.then(gone, gone);
  return adding;
}

/**
 * Settles once every feature's texts registered so far have arrived (or failed): a lazy screen is
 * handed to React only then (`lazyPage.tsx`). A screen that reads its feature's texts before it
 * waits for them would otherwise render their keys; taking over a screen drawn before the app, React
 * may replay only the part that waited, keeping the keys its parent rendered: error 418.
 */
export function featureTextsArrived(): Promise<void> {
  return Promise.allSettled([...arriving]).then(() => undefined);
}

/** Loads a language's file once, switches to it and sets `lang` and `dir` on the document. */
export async function switchLanguage(language: Language): Promise<void> {
  wanted = language;
  if (language !== 'en' && !i18n.hasResourceBundle(language, 'translation')) {
    const module = await loaders[language]();
    i18n.addResourceBundle(language, 'translation', module.default);
  }
  await Promise.all(featureTexts.map((feature) => addFeature(feature, language)));
  await i18n.changeLanguage(language);
  // Drawn at build time (prerender.tsx) there is no page: the build writes lang and dir itself.
  if (typeof document === 'undefined') return;
  document.documentElement.lang = LANGUAGE_TAGS[language];
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
  // The server sends the page's first paint in this language next time (not read by the API).
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the app serves
  document.cookie = `swx_lang=${language}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * A decimal string (lots, prices, limits from the server) in the reader's locale, every digit
 * kept and none added: Intl's string input never passes through a float.
 */
export function formatDecimal(language: Language, decimal: string): string {
  const fraction = decimal.split('.')[1]?.length ?? 0;
  return numberFormat(LANGUAGE_TAGS[language], {
    minimumFractionDigits: fraction,
    maximumFractionDigits: fraction,
  }).format(decimal as unknown as number);
}

/** Numbers and dates in the reader's locale. */
export function formatNumber(
  language: Language,
  value: number | bigint,
  options?: Intl.NumberFormatOptions,
): string {
  return numberFormat(LANGUAGE_TAGS[language], options).format(value);
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

/** A moment of a product's record (a payout, a trade, a signature) in UTC, saying so. */
export function formatUtcTime(language: Language, value: string): string {
  return formatDate(language, value, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

/** A UTC day ("2025-03-01"), or the day of a UTC moment, in the reader's words. */
export function formatUtcDay(language: Language, value: string): string {
  return formatDate(language, `${value.slice(0, 10)}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' });
}
