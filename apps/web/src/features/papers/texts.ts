import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/** The papers screens' texts (locales/<language>.json), loaded with their chunk (`use(papersTexts)`). */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const papersTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no papers texts for ${language}`);
  return load();
});
