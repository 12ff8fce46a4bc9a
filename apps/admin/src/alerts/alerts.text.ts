import { byLanguage } from '../text.ts';

/** The alerts screen's text in the back office's ten languages: locales/<language>.json. */
export type AlertsText = typeof import('./locales/en.json');

export const ALERTS_TEXT = byLanguage<AlertsText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
