import { describe, expect, it } from 'vitest';
import { addFeatureTexts, i18n, initI18n, type Texts } from './i18n.ts';
import { lazyPage } from './lazyPage.tsx';

/** A chunk as it runs: it registers its feature's texts (their file still on the way) and exports its screen. */
function chunk(texts: () => Promise<Texts>) {
  return async () => {
    void addFeatureTexts(texts).catch(() => undefined);
    return { default: () => null };
  };
}

const soon = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('a lazy screen', () => {
  it('is handed to React only once the texts its chunk registered are in', async () => {
    await initI18n('en');
    let deliver: () => void = () => undefined;
    const file = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    const Page = lazyPage(
      chunk(async () => {
        await file;
        return { lazyFeature: { word: 'here' } };
      }),
    );
    let handed = false;
    const handing = Page.preload().then(() => {
      handed = true;
    });
    try {
      await soon();
      // Drawn now, its texts would be their keys (React error 418 when it takes over a drawn screen).
      expect(handed).toBe(false);
      expect(i18n.t('lazyFeature.word')).toBe('lazyFeature.word');
    } finally {
      // Whatever happened: a language switch waits for every feature's texts.
      deliver();
    }
    await handing;
    expect(i18n.t('lazyFeature.word')).toBe('here');
  });

  it('is handed over when its texts fail to arrive (the screen then shows its own error)', async () => {
    await initI18n('en');
    const Page = lazyPage(chunk(() => Promise.reject(new Error('texts file failed'))));
    await expect(Page.preload()).resolves.toBeTypeOf('function');
  });
});
