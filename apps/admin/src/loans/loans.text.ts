import { byLanguage } from '../text.ts';

/** The loan screens' text in the back office's ten languages: locales/<language>.json. */
export type LoanText = typeof import('./locales/en.json');

export const LOAN_TEXT = byLanguage<LoanText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);
