import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The verification's texts (locales/<language>.json), loaded with the screens that show them
 * (verification, the credit score card, settings) rather than with the app. Each waits for them
 * with `use(kycTexts)`.
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const kycTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no verification texts for ${language}`);
  return load();
});
