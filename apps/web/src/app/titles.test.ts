import { LANGUAGES } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './routes.ts';

/**
 * Page titles: the app's own (`locales/<language>.json`, group `title`) and each feature's
 * (`features/<f>/titles/<language>.json`), merged into the app's texts by the build's
 * `featureTitles` plugin (vite.config.ts), which this project loads too.
 */
const bundles = import.meta.glob<{ title: Record<string, string> }>('../locales/*.json', {
  import: 'default',
});

describe('page titles', () => {
  it.each(LANGUAGES)('every route has its title in %s, from the app or its feature', async (language) => {
    const load = bundles[`../locales/${language}.json`];
    expect(load, language).toBeDefined();
    const { title } = await (load as () => Promise<{ title: Record<string, string> }>)();
    const missing = ROUTES.filter((route) => !title[route.title]?.trim()).map((r) => `${r.path} ${r.title}`);
    expect(missing).toEqual([]);
  });

  it("a feature's titles are merged in (the swap feature's own file gives title.swap)", async () => {
    const { title } = await (
      bundles['../locales/en.json'] as () => Promise<{ title: Record<string, string> }>
    )();
    expect(title.swap).toBe('Swap');
    expect(title.home).toBe('Home');
  });
});
