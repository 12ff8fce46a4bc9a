import { LANGUAGE_TAGS, type Language } from './languages.ts';

/**
 * One text format everywhere (web, admin, the catalogue, the server's mails, SMS and notices):
 * JSON per language in a `locales/` folder, placeholders in i18next's syntax, `{{name}}` or
 * `{{name, format}}`, and counts as i18next plural keys (`key_one`, `key_other`, … the language's
 * own categories). The apps render with react-i18next; code without i18next (the server, the
 * back office) renders with `interpolate`.
 */
const PLACEHOLDER = /\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g;

export type TextValues = Readonly<Record<string, string | number | bigint>>;

/**
 * Fills `{{name}}` with the value as given and `{{name, number}}` with a number in the language's
 * format, as the web app's i18next does. A placeholder with no value stays as written, and a value
 * is data: it is never read as a template itself.
 */
export function interpolate(template: string, values: TextValues, language: Language = 'en'): string {
  return template.replace(PLACEHOLDER, (whole, name: string, format: string | undefined) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name] as string | number | bigint;
    if (format === 'number' && typeof value !== 'string')
      return new Intl.NumberFormat(LANGUAGE_TAGS[language]).format(value);
    return String(value);
  });
}

/** The placeholders of a text as `name` or `name,format`, sorted: what a translation must keep. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => (m[2] ? `${m[1]},${m[2]}` : `${m[1]}`)).sort();
}

/**
 * The plural categories i18next asks for in a language (Intl's, so Japanese has only `other` and
 * Arabic `zero` to `other`). `hk` is not a locale i18next resolves, so it has `one` and `other`.
 */
export function pluralCategories(language: Language): string[] {
  if (language === 'hk') return ['one', 'other'];
  return [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
}
