import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The trading texts (locales/<language>.json: the ticket, its confirmation, orders), loaded with
 * the screens that show them rather than with the app. Each waits for them with `use(tradeTexts)`.
 * A position's close reasons (`closeReason.*`) are in the app's texts: the ledger's record shows
 * them too.
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const tradeTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no trading texts for ${language}`);
  return load();
});
