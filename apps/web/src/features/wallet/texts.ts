import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The wallet screens' texts (locales/<language>.json), loaded with the wallet's chunk and not
 * with the app, so the home page's JavaScript does not carry them. Every wallet screen waits for
 * them (`use(walletTexts)` in `WalletPage`).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const walletTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no wallet texts for ${language}`);
  return load();
});
