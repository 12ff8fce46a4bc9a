import type { Language } from '@swx/contract';
import { addFeatureTexts, type Texts } from '../../app/i18n.ts';

/**
 * The security screens' texts (two-step sign-in, sessions, password and authenticator;
 * locales/<language>.json), loaded with their chunks and not with the app, so the home page's
 * JavaScript does not carry them (`use(identityTexts)` in Security and in Login's second step).
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const identityTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no identity texts for ${language}`);
  return load();
});
