import { PDFDocument, PDFName, type PDFPage, type PDFRef } from 'pdf-lib';
import subsetFont from 'subset-font';
import { type CodeGlyph, embedFace, pdfText, widthOf } from './embed.ts';
import { assignFaces, type Face, type Family, faceOf } from './fonts.ts';
import { type Line, layoutParagraph, type PlacedGlyph } from './layout.ts';

/**
 * A PDF of text in any of the platform's languages: each paragraph's characters get a Noto face
 * (fonts.ts), every face is subsetted to the characters it sets (HarfBuzz's subsetter, keeping the
 * layout tables those need), the text is shaped with the subsetted faces and laid out in lines
 * (layout.ts), and the glyphs are drawn by id with the fonts embedded (embed.ts). Right-to-left
 * paragraphs are right-aligned. The same blocks and date make the same bytes.
 */

export type TextBlock = {
  kind: 'text';
  text: string;
  size: number;
  /** BCP 47 tag for shaping (e.g. 'ar', 'ja', 'zh-Hans', 'zh-HK'). */
  language: string;
  rtl: boolean;
  /** Families to set the text in, first choice first. */
  families: readonly Family[];
  /** Space after the paragraph, in points. */
  after?: number;
};
export type ImageBlock = {
  kind: 'image';
  bytes: Uint8Array;
  contentType: string;
  width: number;
  height: number;
};
export type Block = TextBlock | ImageBlock | { kind: 'pageBreak' };

export type PdfMeta = { title: string; author: string; language: string; date: Date };

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 56;

/** Mirrored brackets: a right-to-left run draws the other one. */
const MIRRORS: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
};

/** Each face subsetted to the characters it sets, by the full face's id. */
async function subsets(blocks: readonly TextBlock[], faces: readonly Face[][]): Promise<Map<string, Face>> {
  const chars = new Map<string, { face: Face; set: Set<string> }>();
  blocks.forEach((block, b) => {
    let i = 0;
    for (const char of block.text) {
      const face = faces[b]?.[i] as Face;
      i += char.length;
      const entry = chars.get(face.id) ?? { face, set: new Set([' ']) };
      entry.set.add(char);
      if (MIRRORS[char]) entry.set.add(MIRRORS[char]);
      chars.set(face.id, entry);
    }
  });
  const out = new Map<string, Face>();
  for (const [id, { face, set }] of chars) {
    const text = [...set].sort().join('');
    const bytes = await subsetFont(Buffer.from(face.sfnt), text, { targetFormat: 'sfnt' });
    out.set(id, faceOf(id, face.family, new Uint8Array(bytes)));
  }
  return out;
}

const num = (n: number) => String(Math.round(n * 100) / 100);
const codeHex = (code: number) => `<${code.toString(16).padStart(4, '0').toUpperCase()}>`;

/**
 * The code a glyph is drawn with: one per glyph and text it stands for. Arabic faces draw several
 * letters with one base glyph (the dots are marks), so a code per glyph alone could not say which
 * letter it was; the font's CIDToGIDMap takes each code to its glyph, its ToUnicode to its text.
 */
function codeOf(
  font: { codes: Map<string, number>; used: Map<number, CodeGlyph> },
  glyph: PlacedGlyph,
): number {
  const key = `${glyph.gid}:${glyph.text}`;
  let code = font.codes.get(key);
  if (code === undefined) {
    code = font.used.size;
    font.codes.set(key, code);
    font.used.set(code, { gid: glyph.gid, text: glyph.text });
  }
  return code;
}

type Canvas = {
  doc: PDFDocument;
  page: PDFPage;
  y: number;
  content: Map<PDFPage, string[]>;
  fonts: Map<Face, { name: string; codes: Map<string, number>; used: Map<number, CodeGlyph> }>;
  pageFonts: Map<PDFPage, Set<Face>>;
};

function newPage(c: Canvas): void {
  c.page = c.doc.addPage(PAGE);
  c.y = PAGE[1] - MARGIN;
  c.content.set(c.page, []);
  c.pageFonts.set(c.page, new Set());
}

/** The operators that draw one line at (x, baseline), wrapped in its ActualText. */
function drawLine(c: Canvas, line: Line, x: number, baseline: number, size: number): void {
  const ops: string[] = [`/Span <</ActualText ${pdfText(line.text).toString()}>> BDC`, 'BT'];
  const paths: string[] = [];
  let pen = x;
  for (const run of line.runs) {
    let font = c.fonts.get(run.face);
    if (!font) {
      font = { name: `N${c.fonts.size + 1}`, codes: new Map(), used: new Map([[0, { gid: 0, text: '' }]]) };
      c.fonts.set(run.face, font);
    }
    c.pageFonts.get(c.page)?.add(run.face);
    ops.push(`/${font.name} ${num(size)} Tf`);
    let segment: string[] = [];
    const flush = () => {
      if (segment.length > 0) ops.push(`[${segment.join(' ')}] TJ`);
      segment = [];
    };
    ops.push(`1 0 0 1 ${num(pen)} ${num(baseline)} Tm`);
    for (const glyph of run.glyphs) {
      if (glyph.text === '') {
        // A glyph that stands for no text of its own (a mark): drawn as its outline, so a reader
        // copying the text gets each character once.
        flush();
        paths.push(outline(run.face, glyph.gid, pen + glyph.dx, baseline + glyph.dy, size));
        pen += glyph.advance;
        ops.push(`1 0 0 1 ${num(pen)} ${num(baseline)} Tm`);
        continue;
      }
      const code = codeOf(font, glyph);
      if (glyph.dx !== 0 || glyph.dy !== 0) {
        flush();
        ops.push(`1 0 0 1 ${num(pen + glyph.dx)} ${num(baseline + glyph.dy)} Tm ${codeHex(code)} Tj`);
        pen += glyph.advance;
        ops.push(`1 0 0 1 ${num(pen)} ${num(baseline)} Tm`);
        continue;
      }
      segment.push(codeHex(code));
      // The PDF advances by the glyph's width; HarfBuzz's advance (kerning) differs by this much.
      const adjust = widthOf(run.face, glyph.gid) - (glyph.advance * 1000) / size;
      if (Math.abs(adjust) > 0.01) segment.push(num(adjust));
      pen += glyph.advance;
    }
    flush();
  }
  ops.push('ET', ...paths, 'EMC');
  c.content.get(c.page)?.push(ops.join('\n'));
}

/** A glyph's outline filled at (x, y), scaled from font units to the size. */
function outline(face: Face, gid: number, x: number, y: number, size: number): string {
  const s = size / face.upem;
  const path: string[] = [];
  let at = [0, 0];
  for (const { type, values: v } of face.font.glyphToJson(gid)) {
    if (type === 'M' || type === 'L') path.push(`${v[0]} ${v[1]} ${type === 'M' ? 'm' : 'l'}`);
    else if (type === 'Q') {
      // Quadratic to cubic: control points two thirds of the way to the quadratic's.
      const [qx = 0, qy = 0, ex = 0, ey = 0] = v;
      const [sx = 0, sy = 0] = at;
      const c = (from: number, q: number) => num(from + ((q - from) * 2) / 3);
      path.push(`${c(sx, qx)} ${c(sy, qy)} ${c(ex, qx)} ${c(ey, qy)} ${ex} ${ey} c`);
    } else if (type === 'C') path.push(`${v.join(' ')} c`);
    else path.push('h');
    if (v.length >= 2) at = v.slice(-2);
  }
  return `q ${s} 0 0 ${s} ${num(x)} ${num(y)} cm ${path.join(' ')} f Q`;
}

async function drawImage(c: Canvas, block: ImageBlock): Promise<void> {
  const image =
    block.contentType === 'image/png' ? await c.doc.embedPng(block.bytes) : await c.doc.embedJpg(block.bytes);
  const scaled = image.scaleToFit(block.width, block.height);
  if (c.y - scaled.height < MARGIN) newPage(c);
  c.page.drawImage(image, { x: MARGIN, y: c.y - scaled.height, width: scaled.width, height: scaled.height });
  c.y -= scaled.height + 12;
}

/** Lays the blocks out on A4 pages and answers the PDF's bytes. */
export async function writePdf(blocks: readonly Block[], meta: PdfMeta): Promise<Uint8Array> {
  const texts = blocks.filter((b): b is TextBlock => b.kind === 'text');
  const faces = await Promise.all(texts.map((b) => assignFaces(b.text, b.families)));
  const subsetOf = await subsets(texts, faces);
  const doc = await PDFDocument.create();
  doc.setTitle(meta.title);
  doc.setAuthor(meta.author);
  doc.setProducer(meta.author);
  doc.setCreator(meta.author);
  doc.setLanguage(meta.language);
  doc.setCreationDate(meta.date);
  doc.setModificationDate(meta.date);
  const c = { doc, y: 0, content: new Map(), fonts: new Map(), pageFonts: new Map() } as unknown as Canvas;
  newPage(c);
  const width = PAGE[0] - 2 * MARGIN;
  for (const block of blocks) {
    if (block.kind === 'pageBreak') newPage(c);
    else if (block.kind === 'image') await drawImage(c, block);
    else {
      const blockFaces = (faces[texts.indexOf(block)] ?? []).map((f) => subsetOf.get(f.id) as Face);
      const lines = layoutParagraph(block.text, blockFaces, { ...block, width });
      const height = block.size * 1.55;
      for (const line of lines) {
        if (c.y - height < MARGIN) newPage(c);
        const x = block.rtl ? MARGIN + width - line.width : MARGIN;
        drawLine(c, line, x, c.y - block.size * 1.15, block.size);
        c.y -= height;
      }
      c.y -= block.after ?? 0;
    }
  }
  finish(c);
  return doc.save({ useObjectStreams: false });
}

/** Embeds every font used and gives each page its text and its fonts. */
function finish(c: Canvas): void {
  const refs = new Map<Face, PDFRef>();
  for (const [face, font] of c.fonts) refs.set(face, embedFace(c.doc, face, font.used));
  for (const [page, ops] of c.content) {
    if (ops.length === 0) continue;
    for (const face of c.pageFonts.get(page) ?? []) {
      const font = c.fonts.get(face);
      const ref = refs.get(face);
      if (font && ref) page.node.setFontDictionary(PDFName.of(font.name), ref);
    }
    page.node.addContentStream(c.doc.context.register(c.doc.context.flateStream(ops.join('\n'))));
  }
}
