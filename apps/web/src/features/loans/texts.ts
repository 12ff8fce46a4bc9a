import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The loan screens' texts (locales/<language>.json), loaded with the loans chunk and not with the
 * app, so the home page's JavaScript does not carry them. Every loan screen waits for them
 * (`use(loanTexts)` in `LoanPage`).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const loanTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no loan texts for ${language}`);
  return load();
});
