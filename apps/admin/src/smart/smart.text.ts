import { byLanguage } from '../text.ts';

/** The smart-plan screens' text in the back office's ten languages: locales/<language>.json. */
export type SmartText = typeof import('./locales/en.json');

export const SMART_TEXT = byLanguage<SmartText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
