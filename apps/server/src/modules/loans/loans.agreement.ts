import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { interpolate, type Language, LOAN_WITHDRAWAL_DAYS, type OperatorInfo } from '@swx/contract';
import type { Family } from '../../platform/pdf/fonts.ts';
import type { Block, TextBlock } from '../../platform/pdf/writer.ts';
import { localeTexts } from '../../platform/texts.ts';

/**
 * The loan agreement: its clauses generated from the quote's figures (the ones the loan posts), in
 * the borrower's language (the quote's), naming the lender (the operator's identity settings) and
 * the borrower (the legal name of their verified identity); and the signed PDF (the clauses, the
 * English text attached when the borrower's language is another, and the signature the customer
 * drew), whose SHA-256 goes to the audit log. The PDF is set in Noto fonts, shaped, right to left
 * in Arabic (platform/pdf).
 */

const TEXT = localeTexts<typeof import('./agreement/locales/en.json')>(
  join(import.meta.dirname, 'agreement', 'locales'),
);

/** Who lends: the operator's identity as customers read it. */
export type AgreementLender = Pick<
  OperatorInfo,
  'companyName' | 'registrationNumber' | 'registeredAddress' | 'regulator' | 'licenceNumber' | 'sandbox'
>;

export type AgreementFigures = {
  /** The borrower's legal name, from their verified identity. */
  borrower: string;
  lender: AgreementLender;
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

/** The lender's name and what identifies it (registration, address, regulator and licence). */
function lenderLines(t: (typeof TEXT)['en'], lender: AgreementLender): { name: string; details: string[] } {
  if (lender.companyName === undefined)
    return { name: lender.sandbox ? t.sandboxLender : t.unnamedLender, details: [] };
  const details = [
    lender.registrationNumber && interpolate(t.registration, { number: lender.registrationNumber }),
    lender.registeredAddress && interpolate(t.address, { address: lender.registeredAddress }),
    lender.regulator &&
      (lender.licenceNumber
        ? interpolate(t.licence, { regulator: lender.regulator, licence: lender.licenceNumber })
        : interpolate(t.regulator, { regulator: lender.regulator })),
  ].filter((item): item is string => Boolean(item));
  return { name: lender.companyName, details };
}

/** The clauses, in order, in the language; each figure is the quote's. */
export function agreementLines(f: AgreementFigures, language: Language = 'en'): string[] {
  const t = TEXT[language];
  const lender = lenderLines(t, f.lender);
  const x = (text: string, values: Record<string, string | number> = {}) =>
    interpolate(text, { asset: f.asset, ...values });
  return [
    x(t.parties, { lender: lender.name, borrower: f.borrower }),
    ...(lender.details.length > 0 ? [x(t.lenderDetails, { details: lender.details.join('; ') })] : []),
    x(t.product, { product: f.productName, amount: f.amount }),
    x(t.term, { days: f.termDays }),
    x(t.rate, { rate: percent(f.dailyRate), freeDays: f.interestFreeDays, interestDays: f.interestDays }),
    x(t.total, { interest: f.totalInterest, total: f.totalPayable }),
    x(t.apr, { apr: f.apr }),
    x(t.late, { lateRate: percent(f.lateDailyRate), lateCap: f.lateCostCap }),
    t.early,
    t.order,
    x(t.withdrawal, { withdrawalDays: LOAN_WITHDRAWAL_DAYS }),
    t.repayment,
    t.signing,
  ];
}

/** The families a language's text is set in, first choice first (then any other, for names). */
const FAMILY_ORDER: Record<Language, readonly Family[]> = {
  en: ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'],
  de: ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'],
  fr: ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'],
  it: ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'],
  es: ['latin', 'arabic', 'sc', 'jp', 'kr', 'hk'],
  ar: ['arabic', 'latin', 'sc', 'jp', 'kr', 'hk'],
  ja: ['jp', 'latin', 'sc', 'kr', 'hk', 'arabic'],
  ko: ['kr', 'latin', 'sc', 'jp', 'hk', 'arabic'],
  zh: ['sc', 'latin', 'jp', 'kr', 'hk', 'arabic'],
  hk: ['hk', 'latin', 'sc', 'jp', 'kr', 'arabic'],
};
/** The language tag HarfBuzz shapes with. */
const SHAPING_TAG: Record<Language, string> = {
  en: 'en',
  de: 'de',
  fr: 'fr',
  it: 'it',
  es: 'es',
  ar: 'ar',
  ja: 'ja',
  ko: 'ko',
  zh: 'zh-Hans',
  hk: 'zh-HK',
};

/** How a language's text is set: its shaping tag, direction and fonts. */
const styleOf = (language: Language) => ({
  language: SHAPING_TAG[language],
  rtl: language === 'ar',
  families: FAMILY_ORDER[language],
});

/** The title, the numbered clauses and the closing line of one language, as blocks. */
function clauseBlocks(language: Language, lines: readonly string[], after: string | null): TextBlock[] {
  const style = styleOf(language);
  return [
    { kind: 'text', text: TEXT[language].title, size: 18, after: 10, ...style },
    ...lines.map(
      (clause, i): TextBlock => ({ kind: 'text', text: `${i + 1}. ${clause}`, size: 10, after: 5, ...style }),
    ),
    ...(after === null ? [] : [{ kind: 'text' as const, text: after, size: 10, after: 4, ...style }]),
  ];
}

/**
 * The signed agreement as a PDF: the clauses in the borrower's language, the signature image and
 * when it was signed; then, when that language is not English, the English text (`english`: the
 * same clauses in English). Dates in the document are the signing time, so the same inputs make
 * the same bytes.
 */
export async function agreementPdf(
  signed: { language: Language; lines: readonly string[]; english: readonly string[] },
  signature: { bytes: Uint8Array; contentType: string },
  signedAt: Date,
): Promise<Uint8Array> {
  const { language } = signed;
  const time = signedAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
  const blocks: Block[] = [
    ...clauseBlocks(language, signed.lines, interpolate(TEXT[language].signed, { time })),
    { kind: 'image', bytes: signature.bytes, contentType: signature.contentType, width: 240, height: 120 },
  ];
  if (language !== 'en')
    blocks.push(
      { kind: 'pageBreak' },
      { kind: 'text', text: TEXT[language].englishAttached, size: 10, after: 12, ...styleOf(language) },
      ...clauseBlocks('en', signed.english, interpolate(TEXT.en.signed, { time })),
    );
  // The writer (pdf-lib, HarfBuzz, the fonts) is loaded when a document is first made, not at start.
  const { writePdf } = await import('../../platform/pdf/writer.ts');
  return writePdf(blocks, {
    title: TEXT[language].title,
    author: 'SWX',
    language: SHAPING_TAG[language],
    date: signedAt,
  });
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
