import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from 'pdf-lib';
import { hiddenContent, ImageRefusal, isPdf } from './uploads.images.ts';

/**
 * PDF documents, for the purposes that take them (`documents` in UPLOAD_PURPOSES), checked by
 * content like a picture: the bytes decide. A PDF is accepted when
 *  1. it is within the purpose's size limit and starts with `%PDF-1.x`;
 *  2. nothing follows its last `%%EOF` but line ends (nothing appended);
 *  3. no markup, script or archive is hidden in it (the pictures' check: HTML, PHP, a ZIP, a
 *     second PDF);
 *  4. it parses, is not encrypted, and has 1 to MAX_PAGES pages of sane sizes;
 * and it is then rebuilt: a new document receives copies of its pages only, without their
 * annotations (links, form fields, sounds) and their actions, so the catalogue's open action,
 * scripts, forms (AcroForm, XFA), embedded files, outlines and metadata are gone. What the rebuilt
 * document still reaches is walked: an action, a script or an embedded file left anywhere
 * (hidden in a page's resources) refuses the file.
 */
export const MAX_PAGES = 50;
/** 200 inches, PDF's own largest page. */
const MAX_POINTS = 14_400;

export type CheckedPdf = { bytes: Buffer; contentType: 'application/pdf'; width: number; height: number };

/** Keys and action types that make a PDF do something when opened, clicked or printed. */
const ACTIVE_KEYS = ['JS', 'JavaScript', 'AA', 'OpenAction', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia'];
const ACTIVE_ACTIONS = [
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ImportData',
  'GoToE',
  'GoToR',
  'RichMediaExecute',
  'Rendition',
  'Sound',
  'Movie',
];
/** Page keys not copied: annotations, page actions, metadata, private application data. */
const DROPPED_PAGE_KEYS = ['Annots', 'AA', 'Metadata', 'PieceInfo', 'B', 'Thumb'];

function activeIn(doc: PDFDocument): string | null {
  const seen = new Set<PDFObject>();
  const visit = (object: PDFObject | undefined): string | null => {
    if (!object || seen.has(object)) return null;
    seen.add(object);
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict) {
      for (const key of ACTIVE_KEYS) if (dict.has(PDFName.of(key))) return key;
      const action = dict.get(PDFName.of('S'));
      if (action instanceof PDFName && ACTIVE_ACTIONS.includes(action.decodeText()))
        return action.decodeText();
      for (const [, value] of dict.entries()) {
        const found = visit(value);
        if (found) return found;
      }
    } else if (object instanceof PDFArray) {
      for (const value of object.asArray()) {
        const found = visit(value);
        if (found) return found;
      }
    }
    return null;
  };
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const found = visit(object);
    if (found) return found;
  }
  return null;
}

async function rebuild(source: PDFDocument): Promise<PDFDocument> {
  const out = await PDFDocument.create({ updateMetadata: false });
  // Dropped from the source's pages before the copy, so what they name is never copied at all.
  for (const page of source.getPages())
    for (const key of DROPPED_PAGE_KEYS) page.node.delete(PDFName.of(key));
  const pages = await out.copyPages(source, source.getPageIndices());
  for (const page of pages) {
    const { width, height } = page.getSize();
    if (!(width > 0 && height > 0 && width <= MAX_POINTS && height <= MAX_POINTS))
      throw new ImageRefusal('dimensions', `page ${width}x${height}`);
    out.addPage(page);
  }
  return out;
}

/** The end of a PDF: its last `%%EOF`, then only line ends. */
function endsClean(b: Buffer): boolean {
  const at = b.lastIndexOf('%%EOF', undefined, 'latin1');
  return at >= 0 && /^[\r\n\s]*$/.test(b.subarray(at + 5).toString('latin1'));
}

/** Parsed and rebuilt; whatever pdf-lib cannot read (it throws anything on a broken file) is corrupt. */
async function parsedAndRebuilt(b: Buffer): Promise<PDFDocument> {
  try {
    const source = await PDFDocument.load(b, { updateMetadata: false, throwOnInvalidObject: true });
    if (source.isEncrypted) throw new ImageRefusal('corrupt', 'encrypted');
    const count = source.getPageCount();
    if (count < 1 || count > MAX_PAGES) throw new ImageRefusal('dimensions', `${count} pages`);
    return await rebuild(source);
  } catch (error) {
    if (error instanceof ImageRefusal) throw error;
    throw new ImageRefusal('corrupt', error instanceof Error ? error.message : 'pdf');
  }
}

export async function checkPdf(input: Uint8Array, maxBytes: number): Promise<CheckedPdf> {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (b.length > maxBytes) throw new ImageRefusal('size', `${b.length} bytes`);
  if (!isPdf(b)) throw new ImageRefusal('type');
  if (!endsClean(b)) throw new ImageRefusal('polyglot', 'bytes after %%EOF');
  const hidden = hiddenContent(b.subarray(5));
  if (hidden) throw new ImageRefusal('polyglot', hidden);
  const out = await parsedAndRebuilt(b);
  const active = activeIn(out);
  if (active) throw new ImageRefusal('polyglot', `active content ${active}`);
  const bytes = Buffer.from(await out.save({ useObjectStreams: true }));
  if (bytes.length > maxBytes) throw new ImageRefusal('size', `${bytes.length} bytes rebuilt`);
  const first = out.getPage(0).getSize();
  return {
    bytes,
    contentType: 'application/pdf',
    width: Math.max(1, Math.round(first.width)),
    height: Math.max(1, Math.round(first.height)),
  };
}
