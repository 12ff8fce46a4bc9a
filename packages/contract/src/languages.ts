/** The ten interface languages of the product (spec §3). `hk` is Traditional Chinese, `zh` Simplified. */
export const LANGUAGES = ['en', 'ja', 'ko', 'de', 'fr', 'it', 'es', 'ar', 'hk', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Names of each language in itself, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ja: '日本語',
  ko: '한국어',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
  ar: 'العربية',
  hk: '繁體中文',
  zh: '简体中文',
};

/** BCP 47 tags, for `lang` attributes, `Intl` formatting and the `Accept-Language` header. */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: 'en',
  ja: 'ja',
  ko: 'ko',
  de: 'de',
  fr: 'fr',
  it: 'it',
  es: 'es',
  ar: 'ar',
  hk: 'zh-HK',
  zh: 'zh-CN',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function isRtl(language: Language): boolean {
  return language === 'ar';
}

/** Maps one language tag (ours or BCP 47) to a product language, or undefined. */
export function languageFromTag(tag: string): Language | undefined {
  const t = tag.trim().toLowerCase();
  if (isLanguage(t)) return t;
  const [primary, region = ''] = t.split(/[-_]/);
  if (primary === 'zh') {
    return ['hk', 'tw', 'mo', 'hant'].includes(region) || t.includes('hant') ? 'hk' : 'zh';
  }
  return primary !== undefined && primary !== 'hk' && isLanguage(primary) ? primary : undefined;
}

/** Picks the best product language from an Accept-Language header value (q-values honoured). */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const language = languageFromTag(entry.tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The content list id of spec §4/§9: 1 for Chinese, 2 for every other language. Kept for the
 * wire contract; the server serves each item in the request's own language.
 */
export function contentListId(language: Language): 1 | 2 {
  return language === 'zh' || language === 'hk' ? 1 : 2;
}

/** The `language` query of /service.html (spec §7): zh for the Chinese set, else en. */
export function serviceChatLanguage(language: string): 'zh' | 'en' {
  return ['zh', 'hk', 'tw', 'mo'].includes(language) ? 'zh' : 'en';
}

/** A text in several languages (operator settings, content): at least one set. */
export type LocalizedText = Partial<Record<Language, string>>;

/** The text of a localized field for a reader: their language, else English, else the first set. */
export function localizedFor(text: LocalizedText | undefined, language: Language): string | undefined {
  if (!text) return undefined;
  return text[language] ?? text.en ?? Object.values(text).find((value) => value !== undefined);
}
