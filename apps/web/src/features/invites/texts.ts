import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The invite page's texts (locales/<language>.json), loaded with its chunk and not with the app,
 * so the home page's JavaScript does not carry them (`use(invitesTexts)` in the page).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const invitesTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no invite texts for ${language}`);
  return load();
});
