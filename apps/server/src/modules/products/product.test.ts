import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { FLOORS, MODULES } from '../../modules.ts';
import { localeTexts } from '../../platform/texts.ts';

/** The products of the one list: the modules built with the kit's `defineProduct`. */
const products = MODULES.flatMap((m) => ('product' in m ? [{ name: m.name, ...m.product }] : []));

/** A module's notice kinds, in one language: the keys of its `notices` texts. */
function noticeKinds(module: string): Record<string, string[]> {
  const folder = join(import.meta.dirname, '..', module, 'locales');
  if (!existsSync(folder)) return Object.fromEntries(LANGUAGES.map((l) => [l, []]));
  const texts = localeTexts<{ notices?: Record<string, string> }>(folder);
  return Object.fromEntries(LANGUAGES.map((l) => [l, Object.keys(texts[l].notices ?? {}).sort()]));
}

describe('product declarations', () => {
  it('the money products of the list are declared with the kit, and no base, kit or composition module is', () => {
    const names = products.map((p) => p.name);
    for (const product of ['earn', 'loans', 'positions', 'smart', 'swap', 'wallet'])
      expect(names).toContain(product);
    const floors: readonly string[] = [...FLOORS.base, ...FLOORS.kit, ...FLOORS.composition];
    expect(names.filter((name) => floors.includes(name))).toEqual([]);
    expect(MODULES.filter((m) => !('product' in m) && !floors.includes(m.name)).map((m) => m.name)).toEqual(
      [],
    );
  });

  it('no two offers share a name: a quote of one product never commits in another', () => {
    const names = products.flatMap((p) => p.quotes.map((q) => q.name));
    expect(names.length).toBeGreaterThan(products.length - 1);
    expect(new Set(names).size).toBe(names.length);
    for (const q of products.flatMap((p) => p.quotes)) expect(q.validSeconds).toBeGreaterThan(0);
  });

  it.each(products.map((p) => [p.name, p.notices] as const))(
    "%s's declared notice kinds are exactly its texts, in every language",
    (name, declared) => {
      const texts = noticeKinds(name);
      for (const language of LANGUAGES) expect(texts[language], language).toEqual([...declared].sort());
    },
  );

  it('no notice kind is declared by two products', () => {
    const kinds = products.flatMap((p) => p.notices);
    expect(new Set(kinds).size).toBe(kinds.length);
  });
});
