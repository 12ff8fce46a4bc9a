import type { CodeValue } from '../codes.ts';
import type { Language } from '../languages.ts';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { hk } from './hk.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';
import type { CatalogueMessages } from './types.ts';
import { zh } from './zh.ts';

export type { CatalogueMessages } from './types.ts';

export const CATALOGUE: Record<Language, CatalogueMessages> = { en, ja, ko, de, fr, it, es, ar, hk, zh };

/** The user text of a catalogue code in one language. */
export function messageFor(code: CodeValue, language: Language): string {
  return CATALOGUE[language][code];
}
