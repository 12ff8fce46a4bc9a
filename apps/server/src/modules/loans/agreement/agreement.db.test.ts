import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '@swx/contract';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../../tests/support/db.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loanProductBody, testLoans } from '../../../test/loans.ts';
import { OperatorService } from '../../operator/operator.service.ts';

/**
 * The signed loan agreement as its borrower downloads it, through the loans service on a real
 * database: it names the operator (the identity settings) and the borrower (their verified legal
 * name), is in the borrower's language with the English text attached, its fonts embedded and
 * subsetted, Arabic shaped. The text is read back with PDF.js, as a reader would copy it.
 */

let t: TestDatabase;
let ctx: TestContext;
let l: Awaited<ReturnType<typeof testLoans>>;
let productId: number;
const OPERATOR = 'Harbour Markets Ltd';

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db);
  l = await testLoans(ctx);
  const admin = await ctx.staffMember('admin');
  // The operator's identity, as an admin sets it in the back office.
  await new OperatorService({ db: t.db, audit: ctx.audit, production: false }).set(
    { staffId: admin.id, email: admin.email, role: 'admin', sessionId: 'a'.repeat(24) },
    {
      companyName: OPERATOR,
      registrationNumber: 'HE 412345',
      regulator: 'CySEC',
      licenceNumber: '123/45',
      leaders: [],
      partners: [],
      social: [],
    },
  );
  const finance = await ctx.staffMember('finance');
  productId = (await l.loans.createProduct(`staff:${finance.id}`, loanProductBody())).product.id;
  await l.loans.fundPool(
    `staff:${finance.id}`,
    { asset: 'USDT', amount: '100000', reason: 'pool' },
    'agr-pool',
  );
}, 120_000);
afterAll(() => t.close());

/** A verified customer with this legal name applies in their language; answers the signed PDF. */
async function signedAgreement(
  language: Language,
  firstName: string,
  lastName: string,
  tag = language as string,
): Promise<Uint8Array> {
  const customer = await ctx.customer({ name: `agreement-${tag}` });
  await l.verify(customer.id, { firstName, lastName });
  const quote = await l.loans.quote(
    'live',
    customer.id,
    { productId, amount: '1000', termDays: 30 },
    language,
  );
  const loan = await l.loans.apply('live', customer.id, {
    quoteId: quote.quoteId,
    requestId: `agreement-${tag}`,
    signature: await l.signature(customer.id),
    acceptAgreement: true,
  });
  const pdf = await l.loans.agreementForOwner(customer.id, loan.id);
  if (!pdf) throw new Error('no agreement');
  // AGREEMENT_PDF_DIR=<folder>: the PDFs are kept there, to be looked at (pdftoppm).
  const keep = process.env.AGREEMENT_PDF_DIR;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    writeFileSync(join(keep, `agreement-${tag}.pdf`), pdf);
  }
  return pdf;
}

/** The text of each page, as PDF.js extracts it (its items joined, spaces dropped). */
async function pagesText(pdf: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join('')
        .replace(/\s+/g, ''),
    );
  }
  await task.destroy();
  return pages;
}

type EmbeddedFont = { baseFont: string; fontFileBytes: number; toUnicode: Map<number, string> };

/** The Type0 fonts of the PDF: name, size of the embedded font program, glyph → text map. */
async function embeddedFonts(pdf: Uint8Array): Promise<EmbeddedFont[]> {
  const doc = await PDFDocument.load(pdf);
  const fonts: EmbeddedFont[] = [];
  const deref = (value: unknown) => (value instanceof PDFRef ? doc.context.lookup(value) : value);
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Subtype')) !== PDFName.of('Type0')) continue;
    const descendant = deref(object.lookup(PDFName.of('DescendantFonts'), PDFArray).get(0));
    const descriptor = deref((descendant as PDFDict).get(PDFName.of('FontDescriptor'))) as PDFDict;
    const file = deref(descriptor.get(PDFName.of('FontFile2')) ?? descriptor.get(PDFName.of('FontFile3')));
    const cmap = deref(object.get(PDFName.of('ToUnicode')));
    const toUnicode = new Map<number, string>();
    if (cmap instanceof PDFRawStream) {
      const text = Buffer.from(decodePDFRawStream(cmap).decode()).toString('latin1');
      for (const [, gid, hex] of text.matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/g))
        toUnicode.set(
          Number.parseInt(gid ?? '0', 16),
          String.fromCharCode(...(hex?.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16))),
        );
    }
    fonts.push({
      baseFont: String(object.get(PDFName.of('BaseFont'))).slice(1),
      fontFileBytes: file instanceof PDFRawStream ? decodePDFRawStream(file).decode().length : 0,
      toUnicode,
    });
  }
  return fonts;
}

const squeeze = (text: string) => text.replace(/\s+/g, '');

describe(`the loan agreement PDF on ${TEST_DB}`, () => {
  const cases: { language: Language; first: string; last: string; title: string; family: string }[] = [
    { language: 'ar', first: 'ليلى', last: 'حسن', title: 'اتفاقية قرض', family: 'NotoSansArabic' },
    { language: 'zh', first: '伟', last: '张', title: '贷款协议', family: 'NotoSansSC' },
    { language: 'ja', first: '花子', last: '山田', title: 'ローン契約書', family: 'NotoSansJP' },
    { language: 'ko', first: '민준', last: '김', title: '대출 계약서', family: 'NotoSansKR' },
    { language: 'hk', first: '嘉欣', last: '陳', title: '貸款協議', family: 'NotoSansHK' },
  ];

  for (const c of cases)
    it(`in ${c.language}: names the operator and the verified borrower, in the language, English attached, fonts subsetted`, async () => {
      const pdf = await signedAgreement(c.language, c.first, c.last);
      const pages = await pagesText(pdf);
      const all = pages.join('');
      expect(all).toContain(squeeze(c.title));
      expect(all).toContain(squeeze(`${c.first} ${c.last}`));
      expect(all).toContain(squeeze(OPERATOR));
      expect(all).not.toContain('customer');
      // The English text is attached after the text in the borrower's language.
      const english = squeeze(
        `Loan agreement between ${OPERATOR} (the lender) and ${c.first} ${c.last} (the borrower)`,
      );
      expect(all).toContain(english);
      expect(all.indexOf(english)).toBeGreaterThan(all.indexOf(squeeze(c.title)));
      // The language's own Noto face is embedded, subsetted (tagged, small), as are all the fonts.
      const fonts = await embeddedFonts(pdf);
      expect(fonts.map((f) => f.baseFont)).toContainEqual(
        expect.stringMatching(new RegExp(`^[A-Z]{6}\\+${c.family}$`)),
      );
      for (const font of fonts) {
        expect(font.baseFont).toMatch(/^[A-Z]{6}\+NotoSans/);
        expect(font.fontFileBytes).toBeGreaterThan(0);
        expect(font.fontFileBytes).toBeLessThan(120_000);
      }
      expect(pdf.length).toBeLessThan(400_000);
    });

  it('shapes Arabic: one letter is drawn with its contextual forms, different glyphs of one character', async () => {
    const pdf = await signedAgreement('ar', 'سارة', 'خليل', 'ar-shaping');
    const arabic = (await embeddedFonts(pdf)).filter((f) => f.baseFont.endsWith('+NotoSansArabic'));
    expect(arabic.length).toBeGreaterThan(0);
    // Lam (ل) begins, continues and ends words in the clauses: initial, medial and final forms.
    const lam = arabic.flatMap((f) =>
      [...f.toUnicode].filter(([, text]) => text === 'ل').map(([gid]) => gid),
    );
    expect(new Set(lam).size).toBeGreaterThanOrEqual(3);
  });

  it('in English: no second text attached', async () => {
    const pages = await pagesText(await signedAgreement('en', 'Ada', 'Lovelace'));
    const all = pages.join('');
    expect(all).toContain(
      squeeze(`Loan agreement between ${OPERATOR} (the lender) and Ada Lovelace (the borrower)`),
    );
    expect(all).not.toContain(squeeze('English text of this agreement'));
  });
});
