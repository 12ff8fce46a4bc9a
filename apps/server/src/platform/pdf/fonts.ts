import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontverter from 'fontverter';
import * as hb from 'harfbuzzjs';

/*
 * The Noto Sans faces a PDF's text is set in, read from the @fontsource packages installed with
 * the server (nothing is fetched at run time). Each family comes in parts by Unicode range (the
 * ranges of its CSS); a part is read once, when a character of its range is first needed, from
 * its WOFF file (zlib) into an OpenType font for HarfBuzz and the subsetter.
 */

/** The families, by the script they are chosen for: Latin/Greek/Cyrillic, Arabic, and the CJK ones. */
export const FAMILIES = ['latin', 'arabic', 'jp', 'kr', 'sc', 'hk'] as const;
export type Family = (typeof FAMILIES)[number];

const PACKAGES: Record<Family, string> = {
  latin: '@fontsource/noto-sans',
  arabic: '@fontsource/noto-sans-arabic',
  jp: '@fontsource/noto-sans-jp',
  kr: '@fontsource/noto-sans-kr',
  sc: '@fontsource/noto-sans-sc',
  hk: '@fontsource/noto-sans-hk',
};

const require = createRequire(import.meta.url);

type Part = { family: Family; file: string; ranges: readonly (readonly [number, number])[] };

/** A loaded part: its OpenType bytes and a HarfBuzz font over them (cmap look-ups, metrics). */
export type Face = {
  readonly id: string;
  readonly family: Family;
  readonly sfnt: Uint8Array;
  readonly font: hb.Font;
  readonly upem: number;
};

const rangeOf = (item: string): [number, number] => {
  const [from = '', to] = item.trim().replace(/^U\+/i, '').split('-');
  if (from.includes('?'))
    return [Number.parseInt(from.replace(/\?/g, '0'), 16), Number.parseInt(from.replace(/\?/g, 'f'), 16)];
  return [Number.parseInt(from, 16), Number.parseInt(to ?? from, 16)];
};

/** A family's parts, in the order of its stylesheet (regular weight). */
function partsOf(family: Family): Part[] {
  const css = readFileSync(require.resolve(`${PACKAGES[family]}/400.css`), 'utf8');
  return css
    .split('@font-face')
    .slice(1)
    .flatMap((block) => {
      const file = /url\(\.\/files\/([^)]+\.woff)\)/.exec(block)?.[1];
      const ranges = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
      return file && ranges ? [{ family, file, ranges: ranges.split(',').map(rangeOf) }] : [];
    });
}

const parts = new Map<Family, Part[]>();
const faces = new Map<string, Promise<Face>>();

async function load(part: Part): Promise<Face> {
  const woff = readFileSync(require.resolve(`${PACKAGES[part.family]}/files/${part.file}`));
  const sfnt = new Uint8Array(await fontverter.convert(woff, 'sfnt'));
  return faceOf(`${part.family}:${part.file}`, part.family, sfnt);
}

/** A HarfBuzz face and font over OpenType bytes. */
export function faceOf(id: string, family: Family, sfnt: Uint8Array): Face {
  const face = new hb.Face(new hb.Blob(sfnt));
  return { id, family, sfnt, font: new hb.Font(face), upem: face.upem };
}

function faceFor(part: Part): Promise<Face> {
  const id = `${part.family}:${part.file}`;
  let face = faces.get(id);
  if (!face) {
    face = load(part);
    faces.set(id, face);
  }
  return face;
}

/** The face of `family` that has a glyph for the code point, if any. */
async function faceWith(family: Family, cp: number): Promise<Face | null> {
  let list = parts.get(family);
  if (!list) {
    list = partsOf(family);
    parts.set(family, list);
  }
  for (const part of list) {
    if (!part.ranges.some(([from, to]) => cp >= from && cp <= to)) continue;
    const face = await faceFor(part);
    if (face.font.nominalGlyph(cp)) return face;
  }
  return null;
}

/** Spaces, punctuation, marks and joiners: set in the face of the character before, when it has them. */
const FOLLOWS = /[\p{Zs}\p{P}\p{M}\p{Cf}]/u;

/**
 * The face of each UTF-16 unit of the text: the first family of `order` that has the character
 * (spaces, punctuation and marks stay in the face before them when it has a glyph for them); a
 * character no family has is set in the first family's face (its "missing" glyph).
 */
export async function assignFaces(text: string, order: readonly Family[]): Promise<Face[]> {
  const out: Face[] = [];
  let previous: Face | null = null;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    let face: Face | null = null;
    if (previous && FOLLOWS.test(char) && previous.font.nominalGlyph(cp)) face = previous;
    for (const family of order) {
      if (face) break;
      face = await faceWith(family, cp);
    }
    face ??= previous ?? (await faceWith(order[0] ?? 'latin', 0x20));
    if (!face) throw new Error('no font face found');
    for (let i = 0; i < char.length; i++) out.push(face);
    previous = face;
  }
  return out;
}
