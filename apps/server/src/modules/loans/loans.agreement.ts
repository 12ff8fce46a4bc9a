import { createHash } from 'node:crypto';
import { LOAN_WITHDRAWAL_DAYS } from '@swx/contract';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

/**
 * The loan agreement: its clauses generated from the quote's figures (the ones the loan posts),
 * and the signed PDF (the clauses and the signature the customer drew), whose SHA-256 goes to the
 * audit log. The PDF uses the standard Helvetica font, which writes Latin-1 only, so the agreement
 * is in English and any other character of a name is replaced by "?"; the screens show the same
 * figures in the reader's language.
 */

export type AgreementFigures = {
  customer: string;
  productName: string;
  asset: string;
  amount: string;
  termDays: number;
  dailyRate: string;
  interestFreeDays: number;
  interestDays: number;
  totalInterest: string;
  totalPayable: string;
  apr: string;
  lateDailyRate: string;
  lateCostCap: string;
};

const percent = (ratio: string) => {
  // "0.0005" → "0.05": a ratio of at most 6 decimals as a percentage, exactly (no float).
  const [whole = '0', frac = ''] = ratio.split('.');
  const digits = `${whole}${frac.padEnd(6, '0')}`.replace(/^0+(?=\d)/, '');
  const padded = digits.padStart(7, '0');
  const int = padded.slice(0, -4).replace(/^0+(?=\d)/, '');
  const dec = padded.slice(-4).replace(/0+$/, '');
  return dec ? `${int}.${dec}` : int;
};

/** The clauses, in order; each figure is the quote's. */
export function agreementLines(f: AgreementFigures): string[] {
  return [
    `Loan agreement between SWX (the lender) and ${f.customer} (the borrower).`,
    `Product: ${f.productName}. Amount of credit: ${f.amount} ${f.asset}, paid into the borrower's live account on the day the lender approves this application (the payout day).`,
    `Term: ${f.termDays} days from the payout day. The due date is the payout day plus ${f.termDays} days.`,
    `Borrowing rate: ${percent(f.dailyRate)} % a day on the principal owed at the end of each day. The first ${f.interestFreeDays} days after the payout day are free of interest; interest accrues on ${f.interestDays} days.`,
    `Total interest if repaid at the due date: ${f.totalInterest} ${f.asset}. Total amount payable: ${f.totalPayable} ${f.asset}, in one repayment at the due date.`,
    `Annual percentage rate of charge (APR): ${f.apr} %, computed with the formula of Directive 2008/48/EC annex I as amended (Directive (EU) 2023/2225), on a year of 365 days.`,
    `Late payment: from the day after the due date no interest accrues; instead a late-payment cost of ${percent(f.lateDailyRate)} % a day on the principal still owed accrues, never more than ${f.lateCostCap} ${f.asset} in total. No other cost is charged for late payment.`,
    'Early repayment: the borrower may repay in part or in full at any time without a fee; interest is charged only for the days that have passed.',
    'Repayments are applied to late-payment cost first, then to interest, then to principal.',
    `Right of withdrawal: the borrower may withdraw from this agreement within ${LOAN_WITHDRAWAL_DAYS} days of the payout day by repaying the principal and the interest accrued to that day, without any fee.`,
    "Repayment is made from the borrower's live balance, or by a transfer to a repayment address stated by the lender with a proof of the transfer, which the lender reviews.",
    'The borrower signs this agreement by drawing a signature on the screen; the signed agreement is kept by the lender and available to the borrower.',
  ];
}

const latin1 = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** Splits a clause into lines that fit the page's width. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The signed agreement as a PDF: the clauses, the signature image and when it was signed. Dates
 * in the document are the signing time, so the same inputs make the same bytes.
 */
export async function agreementPdf(
  lines: readonly string[],
  signature: { bytes: Uint8Array; contentType: string },
  signedAt: Date,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Loan agreement');
  doc.setAuthor('SWX');
  doc.setProducer('SWX');
  doc.setCreator('SWX');
  doc.setCreationDate(signedAt);
  doc.setModificationDate(signedAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = 56;
  let page = doc.addPage([595.28, 841.89]);
  const width = page.getWidth() - 2 * margin;
  let y = page.getHeight() - margin;
  const need = (height: number) => {
    if (y - height < margin) {
      page = doc.addPage([595.28, 841.89]);
      y = page.getHeight() - margin;
    }
  };
  page.drawText('Loan agreement', { x: margin, y: y - 18, size: 18, font: bold });
  y -= 40;
  lines.forEach((clause, i) => {
    for (const text of wrap(`${i + 1}. ${latin1(clause)}`, font, 10, width)) {
      need(14);
      page.drawText(text, { x: margin, y: y - 10, size: 10, font });
      y -= 14;
    }
    y -= 6;
  });
  const image =
    signature.contentType === 'image/png'
      ? await doc.embedPng(signature.bytes)
      : await doc.embedJpg(signature.bytes);
  const scaled = image.scaleToFit(240, 120);
  need(scaled.height + 40);
  page.drawText(`Signed by the borrower on ${signedAt.toISOString()}:`, {
    x: margin,
    y: y - 12,
    size: 10,
    font,
  });
  y -= 20;
  page.drawImage(image, { x: margin, y: y - scaled.height, width: scaled.width, height: scaled.height });
  return doc.save({ useObjectStreams: false });
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
