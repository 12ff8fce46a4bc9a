import { byLanguage } from '../text.ts';

/** The support inbox's text in the back office's ten languages: locales/<language>.json. */
export type SupportText = typeof import('./locales/en.json');

export const SUPPORT_TEXT = byLanguage<SupportText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
