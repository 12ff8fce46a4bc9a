import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfDocument } from '../../../../../tests/support/images.ts';
import { ImageRefusal } from './uploads.images.ts';
import { checkPdf, MAX_PAGES } from './uploads.pdf.ts';

const MB = 1024 * 1024;
const refusal = (bytes: Uint8Array, maxBytes = 5 * MB) =>
  checkPdf(bytes, maxBytes).then(
    () => 'accepted',
    (e: unknown) => (e instanceof ImageRefusal ? e.issue : Promise.reject(e)),
  );

async function documentWith(change: (doc: PDFDocument) => void, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`page ${i + 1}`, { x: 40, y: 300 });
  change(doc);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** PDFs by content (uploads.pdf.ts): rebuilt from their pages, nothing active kept, anything odd refused. */
describe('PDF uploads', () => {
  it('keeps the pages of a plain PDF, rebuilt', async () => {
    const checked = await checkPdf(pdfDocument(), 5 * MB);
    expect(checked).toMatchObject({ contentType: 'application/pdf', width: 200, height: 200 });
    expect((await PDFDocument.load(checked.bytes)).getPageCount()).toBe(1);
  });

  it('drops the open action, page actions and annotations with their scripts', async () => {
    const bytes = await documentWith((doc) => {
      const script = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
      doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(script));
      const page = doc.getPage(0);
      page.node.set(PDFName.of('AA'), doc.context.obj({ O: script }));
      const link = doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 9, 9], A: script });
      page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(link)]));
    });
    expect(bytes.includes('JavaScript')).toBe(true);
    const checked = await checkPdf(bytes, 5 * MB);
    expect(checked.bytes.includes('JavaScript')).toBe(false);
    expect(checked.bytes.includes('OpenAction')).toBe(false);
    expect(checked.bytes.includes('Annots')).toBe(false);
  });

  it('refuses a script still reachable from a page, something appended, hidden markup, too many pages', async () => {
    const inResources = await documentWith((doc) => {
      const script = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
      doc.getPage(0).node.Resources()?.set(PDFName.of('Hidden'), doc.context.register(script));
    });
    expect(await refusal(inResources)).toBe('polyglot');
    expect(await refusal(Buffer.concat([pdfDocument(), Buffer.from('<?php echo 1; ?>')]))).toBe('polyglot');
    const markup = Buffer.from(
      pdfDocument().toString('latin1').replace('%PDF-1.4\n', '%PDF-1.4\n%<script>\n'),
      'latin1',
    );
    expect(await refusal(markup)).toBe('polyglot');
    expect(await refusal(Buffer.from('%PDF-1.4\nnot a document\n%%EOF\n'))).toBe('corrupt');
    expect(await refusal(await documentWith(() => undefined, MAX_PAGES + 1))).toBe('dimensions');
    expect(await refusal(pdfDocument(), 100)).toBe('size');
    expect(await refusal(Buffer.from('GIF89a'))).toBe('type');
  });
});
