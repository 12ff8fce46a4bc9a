import type { Language } from '@swx/contract';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import hk from './locales/hk.json';
import it from './locales/it.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';
import zh from './locales/zh.json';

/** The operator settings screen's text in the back office's ten languages: locales/<language>.json, typed after English. */
export type OperatorText = typeof en;

export const OPERATOR_TEXT: Record<Language, OperatorText> = { en, ja, ko, de, fr, it, es, ar, hk, zh };
