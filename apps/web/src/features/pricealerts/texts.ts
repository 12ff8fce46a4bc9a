import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The price alerts' texts (locales/<language>.json), loaded with the screens that show them (the
 * instrument page's bell and the account's list), not with the app: each waits with `use(alertTexts)`.
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const alertTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no price alert texts for ${language}`);
  return load();
});
