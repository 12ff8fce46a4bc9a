import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import tradeAr from '../features/positions/locales/ar.json';
import tradeDe from '../features/positions/locales/de.json';
import tradeEn from '../features/positions/locales/en.json';
import tradeFr from '../features/positions/locales/fr.json';
import tradeHk from '../features/positions/locales/hk.json';
import tradeJa from '../features/positions/locales/ja.json';
import ar from '../locales/ar.json';
import de from '../locales/de.json';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import hk from '../locales/hk.json';
import ja from '../locales/ja.json';
import { formatDecimal, installLocaleNumbers } from './i18n.ts';

async function instance() {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: {
      // A feature's texts merged beside the app's, as addFeatureTexts does.
      en: { translation: { ...en, ...tradeEn } },
      de: { translation: { ...de, ...tradeDe } },
      fr: { translation: { ...fr, ...tradeFr } },
      ar: { translation: { ...ar, ...tradeAr } },
      hk: { translation: { ...hk, ...tradeHk } },
      ja: { translation: { ...ja, ...tradeJa } },
    },
    interpolation: { escapeValue: false },
  });
  installLocaleNumbers(i18n);
  return i18n;
}

describe('counts: plural forms and numbers in the language', () => {
  it('says "1 instrument", never "1 instruments", and groups digits per language', async () => {
    const i18n = await instance();
    const t = (lng: string, count: number) => i18n.t('market.count', { lng, count });
    expect(t('en', 1)).toBe('1 instrument');
    expect(t('en', 2)).toBe('2 instruments');
    expect(t('en', 1234)).toBe('1,234 instruments');
    expect(t('de', 1)).toBe('1 Instrument');
    expect(t('de', 1234)).toBe('1.234 Instrumente');
    expect(t('fr', 0)).toBe('0 instrument');
    expect(t('fr', 1_000_000)).toBe('1\u202f000\u202f000 d’instruments');
    expect(t('ja', 1)).toBe('1銘柄');
    expect(t('hk', 1)).toBe('共1項產品');
    expect(t('hk', 1234)).toBe('共1,234項產品');
  });

  it('uses every Arabic plural category', async () => {
    const i18n = await instance();
    const t = (count: number) => i18n.t('trade.period.hours', { lng: 'ar', count });
    expect(t(1)).toBe('ساعة واحدة');
    expect(t(2)).toBe('ساعتان');
    expect(t(4)).toBe('4 ساعات');
    expect(t(12)).toBe('12 ساعة');
    expect(t(100)).toBe('100 ساعة');
    expect(i18n.t('market.count', { lng: 'ar', count: 0 })).toBe('لا توجد أدوات مالية');
  });

  it('words a count of decimals in the singular when it is one', async () => {
    const i18n = await instance();
    expect(i18n.t('trade.error.priceFormat', { lng: 'en', count: 1 })).toBe(
      'Enter a price with at most 1 decimal place.',
    );
    expect(i18n.t('trade.error.priceFormat', { lng: 'de', count: 5 })).toBe(
      'Geben Sie einen Kurs mit höchstens 5 Nachkommastellen ein.',
    );
  });

  it('formats a decimal string from the server in the language, keeping every digit', () => {
    expect(formatDecimal('en', '1000.25')).toBe('1,000.25');
    expect(formatDecimal('de', '1000.25')).toBe('1.000,25');
    expect(formatDecimal('fr', '0.01')).toBe('0,01');
    expect(formatDecimal('en', '100')).toBe('100');
    expect(formatDecimal('en', '12345678901234567.123456789')).toBe('12,345,678,901,234,567.123456789');
  });
});

describe('a feature whose chunk arrives while the language is being switched', () => {
  it('gets the texts of the language switched to, not of the one still shown', async () => {
    const { addFeatureTexts, i18n: appI18n, initI18n, switchLanguage } = await import('./i18n.ts');
    await initI18n('en');
    // A feature already registered, whose Arabic texts take a while: the switch is adding them.
    let arabicAsked: () => void = () => undefined;
    const switchAdding = new Promise<void>((resolve) => {
      arabicAsked = resolve;
    });
    await addFeatureTexts(async (language) => {
      if (language === 'ar') {
        arabicAsked();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { slowFeature: { word: language } };
    });
    const switching = switchLanguage('ar');
    await switchAdding;
    // Now a route's chunk evaluates (it loaded beside the app's start) and registers its texts.
    const asked: string[] = [];
    const ready = addFeatureTexts(async (language) => {
      asked.push(language);
      return { raceFeature: { word: language === 'ar' ? 'كلمة' : 'word' } };
    });
    await Promise.all([switching, ready]);
    expect(appI18n.language).toBe('ar');
    expect(asked).toEqual(['ar']);
    expect(appI18n.t('raceFeature.word')).toBe('كلمة');
  });
});
