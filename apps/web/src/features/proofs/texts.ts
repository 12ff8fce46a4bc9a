import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/** The proof page's texts (locales/<language>.json), loaded with its chunk (`use(proofsTexts)`). */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const proofsTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no proof texts for ${language}`);
  return load();
});
