import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/** The NFT screens' texts (locales/<language>.json), loaded with their chunks (`use(nftTexts)`). */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const nftTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no NFT texts for ${language}`);
  return load();
});
