import { join } from 'node:path';
import type { Language } from '@swx/contract';
import type { Family } from '../../platform/pdf/fonts.ts';
import { localeTexts } from '../../platform/texts.ts';

/** The module's texts in the ten languages (locales/). */
export const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));
export type Texts = (typeof TEXT)['en'];

const FAMILIES: readonly Family[] = ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'];
/** The language's own family, where it is not Latin. */
const OWN_FAMILY: Partial<Record<Language, Family>> = {
  ar: 'arabic',
  ja: 'jp',
  ko: 'kr',
  zh: 'sc',
  hk: 'hk',
};
const SHAPING: Partial<Record<Language, string>> = { zh: 'zh-Hans', hk: 'zh-HK' };

/** How text in a language is set in a PDF: shaping tag, direction, its own face first, then the others. */
export function pdfStyle(language: Language): {
  language: string;
  rtl: boolean;
  families: readonly Family[];
} {
  const own = OWN_FAMILY[language];
  return {
    language: SHAPING[language] ?? language,
    rtl: language === 'ar',
    families: own ? [own, ...FAMILIES.filter((f) => f !== own)] : FAMILIES,
  };
}
