import { byLanguage } from '../text.ts';

/** The four-eyes thresholds screen's text in the back office's ten languages: locales/<language>.json. */
export type FourEyesText = typeof import('./locales/en.json');

export const FOUR_EYES_TEXT = byLanguage<FourEyesText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
