import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reading a PDF back, for tests: the text PDF.js extracts (what a PDF.js reader copies: each run
 * of one direction in reading order, the runs of a line from left to right), and the `ActualText`
 * of each line (what a reader that honours it, e.g. Acrobat or a screen reader, takes: the line's
 * text in logical order).
 */
export async function pdfText(pdf: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await task.destroy();
  return pages;
}

/** Every `/ActualText <FEFF…>` of the pages' content streams, decoded from UTF-16BE, in drawing order. */
export async function actualTexts(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const texts: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    for (const ref of refs) {
      const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
      if (!(stream instanceof PDFRawStream)) continue;
      const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const [, hex = ''] of ops.matchAll(/\/ActualText <FEFF([0-9A-Fa-f]*)>/g)) {
        const bytes = Buffer.from(hex, 'hex');
        texts.push(bytes.swap16().toString('utf16le'));
      }
    }
  }
  return texts;
}
