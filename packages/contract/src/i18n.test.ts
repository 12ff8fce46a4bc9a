/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolate, placeholdersOf, pluralCategories } from './i18n.ts';
import { LANGUAGES, type Language } from './languages.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

type Tree = { [key: string]: unknown };

/**
 * Every `locales/` folder with an `en.json` under apps/ and packages/, and every web feature's
 * `titles/` (its page titles, merged into the app's texts by the build): one text area each.
 */
function localeAreas(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if ((name === 'locales' || name === 'titles') && readdirSync(path).includes('en.json')) found.push(path);
    localeAreas(path, found);
  }
  return found;
}

function load(area: string, language: Language): Tree {
  return JSON.parse(readFileSync(join(area, `${language}.json`), 'utf8')) as Tree;
}

/** Every text of a file by its dotted key; a value that is neither text nor a group is `null`. */
function texts(tree: Tree, prefix = '', out = new Map<string, string | null>()): Map<string, string | null> {
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else if (value && typeof value === 'object' && !Array.isArray(value))
      texts(value as Tree, `${prefix}${key}.`, out);
    else out.set(`${prefix}${key}`, null);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Plain keys, and plural keys grouped by their base with the categories present. */
function shape(all: Map<string, string | null>): { plain: string[]; plural: Map<string, string[]> } {
  const plain: string[] = [];
  const plural = new Map<string, string[]>();
  for (const key of all.keys()) {
    const match = PLURAL.exec(key);
    if (!match) plain.push(key);
    else {
      const base = key.slice(0, match.index);
      plural.set(base, [...(plural.get(base) ?? []), match[1] ?? ''].sort());
    }
  }
  return { plain: plain.sort(), plural };
}

/** `{name}` with single braces: the syntax of before, which nothing renders any more. */
const OLD_PLACEHOLDER = /(?<!\{)\{\w+\}(?!\})|\$\{/;

const areas = localeAreas(join(ROOT, 'apps')).concat(localeAreas(join(ROOT, 'packages')));

describe('locale areas', () => {
  it('are found: web, admin, operator screen, catalogue, identity mails and SMS, notices', () => {
    const names = areas.map((a) => relative(ROOT, a).replaceAll('\\', '/'));
    for (const expected of [
      'apps/web/src/', // wherever the web app keeps its texts
      'apps/web/src/features/swap/titles',
      'apps/admin/src/locales',
      'apps/admin/src/operator/locales',
      'packages/contract/src/messages/locales',
      'apps/server/src/modules/identity/locales',
      'apps/server/src/modules/notices/locales',
    ])
      expect(
        names.some((n) => n.startsWith(expected)),
        expected,
      ).toBe(true);
  });
});

describe.each(areas.map((area) => [relative(ROOT, area), area]))('%s', (_, area) => {
  const english = texts(load(area, 'en'));
  const englishShape = shape(english);

  it.each(LANGUAGES)('%s has exactly the keys of en, each a text', (language) => {
    const all = texts(load(area, language));
    const { plain, plural } = shape(all);
    const missing = englishShape.plain.filter((k) => !plain.includes(k));
    const extra = plain.filter((k) => !englishShape.plain.includes(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    expect([...plural.keys()].sort()).toEqual([...englishShape.plural.keys()].sort());
    expect([...all].filter(([, text]) => text === null).map(([key]) => key)).toEqual([]);
  });

  it.each(LANGUAGES)('%s has every plural form its language needs, and no other', (language) => {
    for (const [base, present] of shape(texts(load(area, language))).plural)
      expect(present, `${language}:${base}`).toEqual(pluralCategories(language));
  });

  it.each(LANGUAGES)(
    '%s has no empty text and keeps every placeholder of en, in {{name}} syntax',
    (language) => {
      const all = texts(load(area, language));
      for (const [key, text] of all) {
        expect(text?.trim(), `${language}:${key} is empty`).toBeTruthy();
        expect(OLD_PLACEHOLDER.test(text ?? ''), `${language}:${key} has a {name} placeholder`).toBe(false);
      }
      for (const key of englishShape.plain)
        expect(placeholdersOf(all.get(key) ?? ''), `${language}:${key}`).toEqual(
          placeholdersOf(english.get(key) ?? ''),
        );
      for (const base of englishShape.plural.keys()) {
        const wanted = placeholdersOf(english.get(`${base}_other`) ?? '');
        for (const category of pluralCategories(language)) {
          // A form may spell its number out ("one hour"), never bring a placeholder of its own.
          for (const p of placeholdersOf(all.get(`${base}_${category}`) ?? ''))
            expect(wanted, `${language}:${base}_${category}`).toContain(p);
        }
        expect(placeholdersOf(all.get(`${base}_other`) ?? ''), `${language}:${base}_other`).toEqual(wanted);
      }
    },
  );
});

describe('interpolate', () => {
  it('fills {{name}} as given and {{name, number}} in the language, like the apps', () => {
    expect(interpolate('Customer {{id}} ({{ role }})', { id: 12, role: 'admin' })).toBe(
      'Customer 12 (admin)',
    );
    expect(interpolate('{{count, number}} rows', { count: 1234567 }, 'de')).toBe('1.234.567 rows');
    expect(interpolate('{{count, number}} rows', { count: 1234567n }, 'en')).toBe('1,234,567 rows');
    expect(interpolate('{{a}}{{a}}', { a: 'x' })).toBe('xx');
  });

  it('leaves a placeholder with no value as written and never reads a value as a template', () => {
    expect(interpolate('Hello {{name}}, {{missing}}', { name: '{{missing}}' })).toBe(
      'Hello {{missing}}, {{missing}}',
    );
    expect(interpolate('{{toString}} {{constructor}}', {})).toBe('{{toString}} {{constructor}}');
  });

  it('lists placeholders with their format, and the plural categories of each language', () => {
    expect(placeholdersOf('{{b}} of {{count, number}} and {{a}}')).toEqual(['a', 'b', 'count,number']);
    expect(pluralCategories('ja')).toEqual(['other']);
    expect(pluralCategories('ar')).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    expect(pluralCategories('hk')).toEqual(['one', 'other']);
  });
});
