import type { CodeValue } from '../codes.ts';
import type { Language } from '../languages.ts';
import ar from './locales/ar.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import hk from './locales/hk.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import ko from './locales/ko.json' with { type: 'json' };
import zh from './locales/zh.json' with { type: 'json' };

/** One language's text for every catalogue code; the type makes a missing code a compile error. */
export type CatalogueMessages = Record<CodeValue, string>;

/** The catalogue's texts (spec §8), one JSON file per language in `locales/`. */
export const CATALOGUE: Record<Language, CatalogueMessages> = { en, ja, ko, de, fr, it, es, ar, hk, zh };

/** The user text of a catalogue code in one language. */
export function messageFor(code: CodeValue, language: Language): string {
  return CATALOGUE[language][code];
}
