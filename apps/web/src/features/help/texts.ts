import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The help centre's texts (locales/<language>.json), loaded with its chunk, not with the app:
 * every help screen waits for them (`use(helpTexts)` in `HelpPage`).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const helpTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no help texts for ${language}`);
  return load();
});
