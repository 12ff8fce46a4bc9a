import { byLanguage } from '../text.ts';

/** The earn screens' text in the back office's ten languages: locales/<language>.json. */
export type EarnText = typeof import('./locales/en.json');

export const EARN_TEXT = byLanguage<EarnText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
