import { createHash } from 'node:crypto';
import { type PDFDocument, PDFHexString, type PDFRef, PDFString } from 'pdf-lib';
import type { Face } from './fonts.ts';

/*
 * A subsetted face as a PDF font: Type0 with Identity-H encoding (two-byte codes) over a
 * CIDFontType2 (TrueType outlines, FontFile2, as every Noto face here has), a CIDToGIDMap from each
 * code to its glyph, the widths of the codes used, and a ToUnicode map from each code to the
 * characters it stands for (so text can be searched and copied).
 */

const BASE_NAMES: Record<Face['family'], string> = {
  latin: 'NotoSans',
  arabic: 'NotoSansArabic',
  jp: 'NotoSansJP',
  kr: 'NotoSansKR',
  sc: 'NotoSansSC',
  hk: 'NotoSansHK',
};

/** The directory entry of an OpenType table: offset and length, or null. */
export function tableOf(sfnt: Uint8Array, tag: string): { offset: number; length: number } | null {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const name = String.fromCharCode(...sfnt.subarray(at, at + 4));
    if (name === tag) return { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
  }
  return null;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();
/** UTF-16BE code units in hex (surrogate pairs as two units, as PDF text strings and CMaps want). */
const utf16Hex = (text: string) =>
  Array.from({ length: text.length }, (_, i) => hex4(text.charCodeAt(i))).join('');

/** What a code draws: a glyph, standing for a text (empty for a glyph that adds to another's, as a mark). */
export type CodeGlyph = { gid: number; text: string };

/** A ToUnicode CMap for codes → text. */
function toUnicode(map: ReadonlyMap<number, CodeGlyph>): string {
  // A code with no text of its own (a mark, the rest of a cluster) maps to nothing, not to itself.
  const entries = [...map].map(([code, { text }]) => [code, text] as const).sort(([a], [b]) => a - b);
  const chunks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    chunks.push(
      `${part.length} beginbfchar\n${part.map(([gid, text]) => `<${hex4(gid)}> <${utf16Hex(text)}>`).join('\n')}\nendbfchar`,
    );
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...chunks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/** Width of a glyph in text space units (1000 per em). */
export const widthOf = (face: Face, gid: number) => (face.font.glyphHAdvance(gid) * 1000) / face.upem;

const round = (n: number) => Math.round(n * 100) / 100;

/** Embeds the subsetted face with the glyphs used; answers the font dictionary's reference. */
export function embedFace(doc: PDFDocument, face: Face, used: ReadonlyMap<number, CodeGlyph>): PDFRef {
  const context = doc.context;
  const tag = [...createHash('sha256').update(face.sfnt).digest().subarray(0, 6)]
    .map((b) => String.fromCharCode(65 + (b % 26)))
    .join('');
  const baseFont = `${tag}+${BASE_NAMES[face.family]}`;
  if (tableOf(face.sfnt, 'glyf') === null) throw new Error(`${face.id}: TrueType outlines expected`);
  const head = tableOf(face.sfnt, 'head');
  const view = new DataView(face.sfnt.buffer, face.sfnt.byteOffset, face.sfnt.byteLength);
  const scale = 1000 / face.upem;
  const bbox = head
    ? [36, 38, 40, 42].map((at) => Math.round(view.getInt16(head.offset + at) * scale))
    : [0, -300, 1000, 1000];
  const extents = face.font.hExtents();
  const file = context.register(context.flateStream(face.sfnt, { Length1: face.sfnt.length }));
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: baseFont,
      Flags: 4,
      FontBBox: bbox,
      ItalicAngle: 0,
      Ascent: Math.round(extents.ascender * scale),
      Descent: Math.round(extents.descender * scale),
      CapHeight: Math.round(extents.ascender * scale * 0.7),
      StemV: 80,
      FontFile2: file,
    }),
  );
  const codes = [...used.keys()].sort((a, b) => a - b);
  const widths = codes.flatMap((code) => [code, [round(widthOf(face, used.get(code)?.gid ?? 0))]]);
  // Code → glyph: two bytes per code, from code 0.
  const map = new Uint8Array(2 * (Math.max(...codes) + 1));
  for (const [code, { gid }] of used) {
    map[2 * code] = gid >> 8;
    map[2 * code + 1] = gid & 255;
  }
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: {
        Registry: PDFString.of('Adobe'),
        Ordering: PDFString.of('Identity'),
        Supplement: 0,
      },
      FontDescriptor: descriptor,
      W: widths,
      CIDToGIDMap: context.register(context.flateStream(map)),
    }),
  );
  const cmap = context.register(context.flateStream(toUnicode(used)));
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: cmap,
    }),
  );
}

/** Text as a PDF text string (UTF-16BE with its byte order mark), for ActualText. */
export const pdfText = (text: string) => PDFHexString.of(`FEFF${utf16Hex(text)}`);
