import { byLanguage } from '../text.ts';

/** The operator settings screen's text in the back office's ten languages: locales/<language>.json. */
export type OperatorText = typeof import('./locales/en.json');

export const OPERATOR_TEXT = byLanguage<OperatorText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
