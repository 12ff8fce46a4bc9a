import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The smart trading screens' texts (locales/<language>.json), loaded with the smart chunk and not with the
 * app, so the home page's JavaScript does not carry them. Every smart screen waits for them
 * (`use(smartTexts)` in `SmartPage`).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const smartTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no smart texts for ${language}`);
  return load();
});
