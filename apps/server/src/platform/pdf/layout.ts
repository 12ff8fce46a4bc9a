import bidiModule from 'bidi-js';
import * as hb from 'harfbuzzjs';
import type { Face } from './fonts.ts';

/*
 * A paragraph set in lines: the Unicode bidirectional algorithm (bidi-js) gives each character's
 * level; runs of one level and one face are shaped by HarfBuzz (Arabic joining forms, ligatures,
 * mark positions, kerning, mirrored brackets in right-to-left runs); lines break at spaces, and
 * between CJK characters (not before closing or after opening punctuation); each line's runs are
 * put in visual order (UAX #9, rule L2).
 */

// bidi-js's types describe an ES module; Node loads its CommonJS build, whose default export is the factory.
const bidi = (bidiModule as unknown as typeof bidiModule.default)();

/** One glyph as HarfBuzz placed it, in points; `text` is the characters it stands for (for ToUnicode). */
export type PlacedGlyph = { gid: number; advance: number; dx: number; dy: number; text: string };
/** Glyphs of one face, in visual order. */
export type GlyphRun = { face: Face; glyphs: PlacedGlyph[]; width: number };
/** A line: its runs in visual order, its width and its text in logical order. */
export type Line = { runs: GlyphRun[]; width: number; text: string };

export type ParagraphStyle = { size: number; width: number; rtl: boolean; language: string };

type Piece = { start: number; end: number; level: number; face: Face };

/** Shapes text[start, end) in one face and direction: glyphs in visual order, in points. */
function shape(text: string, piece: Piece, style: ParagraphStyle): GlyphRun & { clusters: number[] } {
  const part = text.slice(piece.start, piece.end);
  const buffer = new hb.Buffer();
  buffer.addText(part);
  buffer.setDirection(piece.level % 2 === 1 ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.setLanguage(style.language);
  buffer.guessSegmentProperties();
  hb.shape(piece.face.font, buffer);
  const infos = buffer.getGlyphInfosAndPositions();
  const scale = style.size / piece.face.upem;
  const starts = [...new Set(infos.map((g) => g.cluster))].sort((a, b) => a - b);
  // A cluster's text goes to one glyph: the first that advances (the base, not its marks).
  const holder = new Map<number, number>();
  infos.forEach((g, i) => {
    const current = holder.get(g.cluster);
    if (current === undefined || (!infos[current]?.xAdvance && g.xAdvance)) holder.set(g.cluster, i);
  });
  const glyphs = infos.map((g, i) => {
    const first = holder.get(g.cluster) === i;
    const next = starts[starts.indexOf(g.cluster) + 1] ?? part.length;
    return {
      gid: g.codepoint,
      advance: (g.xAdvance ?? 0) * scale,
      dx: (g.xOffset ?? 0) * scale,
      dy: (g.yOffset ?? 0) * scale,
      text: first ? part.slice(g.cluster, next) : '',
      cluster: piece.start + g.cluster,
    };
  });
  return {
    face: piece.face,
    glyphs: glyphs.map(({ cluster: _, ...g }) => g),
    width: glyphs.reduce((sum, g) => sum + g.advance, 0),
    clusters: glyphs.map((g) => g.cluster),
  };
}

/** Maximal runs of one level and one face within [start, end). */
function piecesOf(levels: Uint8Array, faces: readonly Face[], start: number, end: number): Piece[] {
  const pieces: Piece[] = [];
  for (let i = start; i < end; i++) {
    const level = levels[i] ?? 0;
    const face = faces[i] as Face;
    const last = pieces.at(-1);
    if (last && last.level === level && last.face === face) last.end = i + 1;
    else pieces.push({ start: i, end: i + 1, level, face });
  }
  return pieces;
}

const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Not at the start of a line (closing punctuation, small kana, prolonged sound mark). */
const NO_START =
  /[、。，．・：；？！）〕］｝〉》」』】〙〗ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;?!)\]}%」]/u;
/** Not at the end of a line (opening punctuation). */
const NO_END = /[（〔［｛〈《「『【〘〖([{]/u;

function canBreakBefore(text: string, i: number): boolean {
  const before = text[i - 1] ?? '';
  const here = text[i] ?? '';
  if (here === ' ' || NO_START.test(here) || NO_END.test(before)) return false;
  if (before === ' ') return true;
  return (CJK.test(before) || CJK.test(here)) && !/[\uDC00-\uDFFF]/.test(here);
}

/** Where the lines of the paragraph break: [start, end) of each, trailing spaces left out. */
function breakLines(text: string, advances: readonly number[], width: number): [number, number][] {
  const lines: [number, number][] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.length;
    let used = 0;
    let lastBreak = -1;
    for (let i = start; i < text.length; i++) {
      if (i > start && canBreakBefore(text, i)) lastBreak = i;
      used += advances[i] ?? 0;
      if (used > width && i > start && text[i] !== ' ') {
        end = lastBreak > start ? lastBreak : i;
        break;
      }
    }
    let trimmed = end;
    while (trimmed > start && text[trimmed - 1] === ' ') trimmed--;
    lines.push([start, trimmed]);
    start = end;
    while (text[start] === ' ') start++;
  }
  return lines;
}

/** Rule L2: from the highest level to the lowest odd one, reverse every sequence at that level or above. */
function visualOrder<T extends { level: number }>(items: T[]): T[] {
  const out = [...items];
  const levels = out.map((p) => p.level);
  const highest = Math.max(...levels);
  let lowestOdd = Math.min(...levels);
  if (lowestOdd % 2 === 0) lowestOdd++;
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if ((out[i]?.level ?? 0) < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && (out[j]?.level ?? 0) >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

/** The paragraph in lines of at most `style.width` points. */
export function layoutParagraph(text: string, faces: readonly Face[], style: ParagraphStyle): Line[] {
  if (text.length === 0) return [];
  const { levels } = bidi.getEmbeddingLevels(text, style.rtl ? 'rtl' : 'ltr');
  const advances: number[] = new Array(text.length).fill(0);
  for (const piece of piecesOf(levels, faces, 0, text.length)) {
    const run = shape(text, piece, style);
    // Each glyph's advance counts at the first character of its cluster.
    run.glyphs.forEach((glyph, i) => {
      const at = run.clusters[i] ?? piece.start;
      advances[at] = (advances[at] ?? 0) + glyph.advance;
    });
  }
  return breakLines(text, advances, style.width).map(([start, end]) => {
    const pieces = piecesOf(levels, faces, start, end);
    const runs = visualOrder(pieces.map((piece) => ({ level: piece.level, run: shape(text, piece, style) })));
    return {
      runs: runs.map(({ run: { clusters: _, ...run } }) => run),
      width: runs.reduce((sum, r) => sum + r.run.width, 0),
      text: text.slice(start, end),
    };
  });
}
