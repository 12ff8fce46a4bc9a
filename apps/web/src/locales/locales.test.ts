import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@swx/contract';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

function keyPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

function load(language: string): Tree {
  return JSON.parse(readFileSync(join(import.meta.dirname, `${language}.json`), 'utf8')) as Tree;
}

function lookup(tree: Tree, path: string): string | undefined {
  let node: Tree | string | undefined = tree;
  for (const key of path.split('.')) node = typeof node === 'object' ? node[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** `{{name}}` or `{{name, format}}`: the name and format must survive translation. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)(?:,\s*(\w+))?\}\}/g)]
    .map((m) => `${m[1]}${m[2] ? `,${m[2]}` : ''}`)
    .sort();
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The plural forms i18next asks for in a language: Intl's categories for its code. `hk` is not a
 * locale i18next can resolve (Intl falls back to the default locale), so it carries one and other.
 */
function categories(language: string): string[] {
  if (language === 'hk') return ['one', 'other'];
  return [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
}

/** Plain keys, and plural keys grouped by their base with the categories present. */
function shape(tree: Tree): { plain: string[]; plural: Map<string, string[]> } {
  const plain: string[] = [];
  const plural = new Map<string, string[]>();
  for (const path of keyPaths(tree)) {
    const match = PLURAL.exec(path);
    if (!match) plain.push(path);
    else {
      const base = path.slice(0, match.index);
      plural.set(base, [...(plural.get(base) ?? []), match[1] ?? ''].sort());
    }
  }
  return { plain: plain.sort(), plural };
}

describe('locale files', () => {
  const english = load('en');
  const englishShape = shape(english);

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en', (language) => {
    const { plain } = shape(load(language));
    const missing = englishShape.plain.filter((k) => !plain.includes(k));
    const extra = plain.filter((k) => !englishShape.plain.includes(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LANGUAGES)('%s has every plural form its language needs, and no other', (language) => {
    const { plural } = shape(load(language));
    expect([...plural.keys()].sort()).toEqual([...englishShape.plural.keys()].sort());
    for (const [base, present] of plural)
      expect(present, `${language}:${base}`).toEqual(categories(language));
  });

  it.each(LANGUAGES)('%s has no empty text and keeps every placeholder', (language) => {
    const tree = load(language);
    for (const path of englishShape.plain) {
      const text = lookup(tree, path);
      expect(typeof text === 'string' && text.trim().length > 0, `${language}:${path}`).toBe(true);
      expect(placeholders(text ?? ''), `${language}:${path}`).toEqual(
        placeholders(lookup(english, path) ?? ''),
      );
    }
    for (const base of englishShape.plural.keys()) {
      const wanted = placeholders(lookup(english, `${base}_other`) ?? '');
      for (const category of categories(language)) {
        const text = lookup(tree, `${base}_${category}`) ?? '';
        expect(text.trim().length > 0, `${language}:${base}_${category}`).toBe(true);
        // A form may spell its number out ("one hour"), never bring a placeholder of its own.
        for (const p of placeholders(text)) expect(wanted, `${language}:${base}_${category}`).toContain(p);
      }
      expect(placeholders(lookup(tree, `${base}_other`) ?? ''), `${language}:${base}_other`).toEqual(wanted);
    }
  });
});
