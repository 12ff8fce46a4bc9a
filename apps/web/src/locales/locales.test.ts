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

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();
}

describe('locale files', () => {
  const english = load('en');
  const englishKeys = keyPaths(english).sort();

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en', (language) => {
    const keys = keyPaths(load(language)).sort();
    const missing = englishKeys.filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !englishKeys.includes(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LANGUAGES)('%s has no empty text and keeps every placeholder', (language) => {
    const tree = load(language);
    for (const path of englishKeys) {
      const text = lookup(tree, path);
      expect(typeof text === 'string' && text.trim().length > 0, `${language}:${path}`).toBe(true);
      expect(placeholders(text ?? ''), `${language}:${path}`).toEqual(
        placeholders(lookup(english, path) ?? ''),
      );
    }
  });
});
