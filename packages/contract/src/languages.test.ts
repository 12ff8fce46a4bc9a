import { describe, expect, it } from 'vitest';
import {
  contentListId,
  languageFromAcceptLanguage,
  languageFromTag,
  serviceChatLanguage,
} from './languages.ts';

describe('languages', () => {
  it('maps BCP 47 tags and our own codes to product languages', () => {
    expect(languageFromTag('en-GB')).toBe('en');
    expect(languageFromTag('zh-HK')).toBe('hk');
    expect(languageFromTag('zh-TW')).toBe('hk');
    expect(languageFromTag('zh-Hant')).toBe('hk');
    expect(languageFromTag('zh-CN')).toBe('zh');
    expect(languageFromTag('zh')).toBe('zh');
    expect(languageFromTag('hk')).toBe('hk');
    expect(languageFromTag('ar-EG')).toBe('ar');
    expect(languageFromTag('pt-BR')).toBeUndefined();
  });

  it('honours q-values and order in Accept-Language, defaulting to English', () => {
    expect(languageFromAcceptLanguage('pt-BR, de;q=0.8, fr;q=0.9')).toBe('fr');
    expect(languageFromAcceptLanguage('ja')).toBe('ja');
    expect(languageFromAcceptLanguage('xx, yy;q=0.5')).toBe('en');
    expect(languageFromAcceptLanguage(undefined)).toBe('en');
    expect(languageFromAcceptLanguage('ko;q=0, es')).toBe('es');
  });

  it('uses content list id 1 for Chinese and 2 otherwise', () => {
    expect(contentListId('zh')).toBe(1);
    expect(contentListId('hk')).toBe(1);
    expect(contentListId('ar')).toBe(2);
    expect(contentListId('en')).toBe(2);
  });

  it('sends zh to the service chat for zh, hk, tw and mo, else en', () => {
    for (const code of ['zh', 'hk', 'tw', 'mo']) expect(serviceChatLanguage(code)).toBe('zh');
    for (const code of ['en', 'ja', 'ar']) expect(serviceChatLanguage(code)).toBe('en');
  });
});
