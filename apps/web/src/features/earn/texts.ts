import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The earn screens' texts (locales/<language>.json), loaded with the earn chunk and not with the
 * app, so the home page's JavaScript does not carry them. Every earn screen waits for them
 * (`use(earnTexts)` in `EarnPage`).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const earnTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no earn texts for ${language}`);
  return load();
});
