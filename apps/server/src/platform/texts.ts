import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language } from '@swx/contract';

/**
 * A module's texts in the ten languages, read once from `<folder>/<language>.json` (the format of
 * every app's texts; the contract's locale test checks each file has exactly English's keys and
 * placeholders). `T` is English's type, `typeof import('./locales/en.json')`; render a text with
 * the contract's `interpolate`.
 */
export function localeTexts<T>(folder: string): Record<Language, T> {
  return Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      JSON.parse(readFileSync(join(folder, `${language}.json`), 'utf8')),
    ]),
  ) as Record<Language, T>;
}
