import {
  ASSET_SCALES,
  Code,
  type Language,
  LOAN_WITHDRAWAL_DAYS,
  type LoanProduct,
  type LoanProductsData,
  type LoanQuote,
  type LoanRecord,
  formatMinor as toDecimal,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { type Book, LedgerError } from '../ledger/ledger.service.ts';
import { ppmText } from '../products/figures.ts';
import { agreementLines, agreementPdf, sha256Hex } from './loans.agreement.ts';
import { type LoanTerms, loanFiguresOf, PPM } from './loans.figures.ts';
import { limit } from './loans.limit.ts';
import { type LoanProductRow, listProducts, productById } from './loans.products.repository.ts';
import { wireLoan } from './loans.reads.ts';
import { creditFactsOf, loanById, loanByRequestKey } from './loans.repository.ts';
import {
  type ApplyData,
  amountOf,
  available,
  type LoansContext,
  poolAccount,
  type QuoteFigures,
  today,
} from './loans.shared.ts';

/* Products, the customer's limit, the quote and the application at a quote. */

export function wireProduct(p: LoanProductRow, poolFree: bigint): LoanProduct {
  const scale = ASSET_SCALES[p.asset];
  return {
    id: p.id,
    name: p.name,
    asset: p.asset,
    minAmount: toDecimal(p.minMinor, scale),
    maxAmount: toDecimal(p.maxMinor, scale),
    terms: p.terms,
    dailyRate: ppmText(p.dailyPpm),
    interestFreeDays: p.interestFreeDays,
    lateDailyRate: ppmText(p.lateDailyPpm),
    lateCapRate: ppmText(p.lateCapPpm),
    enabled: p.enabled,
    available: p.enabled && poolFree >= p.minMinor,
  };
}

/** The loan facts the credit score reads (installed into the KYC service). */
export async function creditFacts(ctx: LoansContext, userId: number) {
  const f = await creditFactsOf(ctx.db, userId);
  return { repaidOnTime: f.repaidOnTime, everOverdue: f.everOverdue };
}

function limitOf(p: LoanProductRow, sharePpm: bigint): bigint {
  return (p.maxMinor * sharePpm) / PPM;
}

/**
 * The APR of each of a product's terms, at its maximum amount: the sheet's own figure
 * (`loanFiguresOf`), which the product card shows beside the daily rate.
 */
function aprsOf(p: LoanProductRow, day: string): { termDays: number; apr: string }[] {
  return p.terms.map((termDays) => ({
    termDays,
    apr: loanFiguresOf(
      {
        amount: p.maxMinor,
        termDays,
        dailyPpm: p.dailyPpm,
        interestFreeDays: p.interestFreeDays,
        lateDailyPpm: p.lateDailyPpm,
        lateCapPpm: p.lateCapPpm,
      },
      day,
    ).apr,
  }));
}

export async function products(ctx: LoansContext, userId: number): Promise<LoanProductsData> {
  const [{ sharePpm, ...mine }, rows] = await Promise.all([limit(ctx, userId), listProducts(ctx.db)]);
  const products = await Promise.all(
    rows
      .filter((p) => p.enabled)
      .map(async (p) => ({
        ...wireProduct(p, await available(ctx, await poolAccount(ctx, p.asset))),
        myLimit: toDecimal(limitOf(p, sharePpm), ASSET_SCALES[p.asset]),
        aprs: aprsOf(p, today(ctx)),
      })),
  );
  return { limit: mine, products };
}

// Quote and apply

async function requireVerified(ctx: LoansContext, book: Book, userId: number): Promise<void> {
  if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
  const state = await ctx.kyc.stateOf(userId);
  if (state !== 'verified') throw new ApiError(Code.USER_NOT_AUTHENTICATED, { kycState: state });
}

/** The terms of a quote; the one source of every figure shown, signed and posted. */
function termsOf(f: QuoteFigures): LoanTerms {
  return {
    amount: f.amount,
    termDays: f.termDays,
    dailyPpm: f.dailyPpm,
    interestFreeDays: f.interestFreeDays,
    lateDailyPpm: f.lateDailyPpm,
    lateCapPpm: f.lateCapPpm,
  };
}

/** The clauses in the language, naming the operator and the borrower's verified legal name. */
async function agreementOf(
  ctx: LoansContext,
  userId: number,
  f: QuoteFigures,
  language: Language,
): Promise<string[]> {
  const scale = ASSET_SCALES[f.asset];
  const figures = loanFiguresOf(termsOf(f), today(ctx));
  const identity = await ctx.kyc.status(userId);
  if (identity.state !== 'verified' || !identity.details)
    throw new ApiError(Code.USER_NOT_AUTHENTICATED, { kycState: identity.state });
  return agreementLines(
    {
      borrower: `${identity.details.firstName} ${identity.details.lastName}`,
      lender: await ctx.operator.info(),
      productName: f.productName,
      asset: f.asset,
      amount: toDecimal(f.amount, scale),
      termDays: f.termDays,
      dailyRate: ppmText(f.dailyPpm),
      interestFreeDays: f.interestFreeDays,
      interestDays: figures.interestDays,
      totalInterest: toDecimal(figures.totalInterest, scale),
      totalPayable: toDecimal(figures.totalPayable, scale),
      apr: figures.apr,
      lateDailyRate: ppmText(f.lateDailyPpm),
      lateCostCap: toDecimal(figures.lateCap, scale),
    },
    language,
  );
}

/** Checks an application's request and answers its figures (10022, 10023, 10013, 10024, 10044). */
async function figures(
  ctx: LoansContext,
  userId: number,
  body: { productId: number; amount: string; termDays: number },
) {
  const p = await productById(ctx.db, body.productId);
  if (!p) throw new ApiError(Code.NOT_FOUND);
  if (!p.enabled) throw new ApiError(Code.SOLD_OUT, { reason: 'disabled' });
  if (!p.terms.includes(body.termDays))
    throw new ApiError(Code.LOAN_PERIOD_WRONG, { terms: p.terms.join(',') });
  const mine = await limit(ctx, userId);
  if (mine.openLoanId !== null)
    throw new ApiError(Code.ALREADY_PURCHASED, { loanId: String(mine.openLoanId) });
  const scale = ASSET_SCALES[p.asset];
  const myLimit = limitOf(p, mine.sharePpm);
  const bounds = {
    minimum: toDecimal(p.minMinor, scale),
    maximum: toDecimal(p.maxMinor, scale),
    limit: toDecimal(myLimit, scale),
  };
  const amount = amountOf(p.asset, body.amount, bounds);
  if (amount < p.minMinor || amount > p.maxMinor || amount > myLimit)
    throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset: p.asset, ...bounds });
  if ((await available(ctx, await poolAccount(ctx, p.asset))) < amount)
    throw new ApiError(Code.SOLD_OUT, { reason: 'pool' });
  const f: QuoteFigures = {
    productId: p.id,
    productName: p.name,
    asset: p.asset,
    amount,
    termDays: body.termDays,
    dailyPpm: p.dailyPpm,
    interestFreeDays: p.interestFreeDays,
    lateDailyPpm: p.lateDailyPpm,
    lateCapPpm: p.lateCapPpm,
  };
  return { f, myLimit };
}

export async function quote(
  ctx: LoansContext,
  book: Book,
  userId: number,
  body: { productId: number; amount: string; termDays: number },
  language: Language = 'en',
): Promise<LoanQuote> {
  await requireVerified(ctx, book, userId);
  const { f: terms, myLimit } = await figures(ctx, userId, body);
  // The agreement is read, and signed, in the customer's language: the quote carries it.
  const f: QuoteFigures = { ...terms, language };
  const issuedAt = Math.floor(ctx.now() / 1000);
  const scale = ASSET_SCALES[f.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  const s = loanFiguresOf(termsOf(f), today(ctx));
  return {
    ...ctx.quotes.issue({ customerId: userId, book }, issuedAt, f),
    productId: f.productId,
    productName: f.productName,
    asset: f.asset,
    amount: d(f.amount),
    termDays: f.termDays,
    dailyRate: ppmText(f.dailyPpm),
    interestFreeDays: f.interestFreeDays,
    interestDays: s.interestDays,
    totalInterest: d(s.totalInterest),
    totalPayable: d(s.totalPayable),
    repaymentAmount: d(s.totalPayable),
    interestFrom: s.interestFrom,
    dueDate: s.dueDate,
    apr: s.apr,
    lateDailyRate: ppmText(f.lateDailyPpm),
    lateCostCap: d(s.lateCap),
    earlyRepaymentFee: d(0n),
    withdrawalDays: LOAN_WITHDRAWAL_DAYS,
    agreement: await agreementOf(ctx, userId, f, language),
    myLimit: d(myLimit),
  };
}

/**
 * Applies at a quote with the drawn signature: the agreement (the quote's clauses and the
 * signature) is made a PDF and kept; the pool reserves the amount (a hold), and the hold's
 * transaction writes the application, takes the signature and audits the agreement's SHA-256.
 * Answered 20001: staff decide.
 */
export async function apply(
  ctx: LoansContext,
  book: Book,
  userId: number,
  body: { quoteId: string; requestId: string; signature: string; acceptAgreement: true },
): Promise<LoanRecord> {
  await requireVerified(ctx, book, userId);
  const requestKey = `loan-apply:${userId}:${body.requestId}`;
  const replay = async () => {
    const row = await loanByRequestKey(ctx.db, requestKey);
    return row && row.userId === userId ? wireLoan(ctx, row) : null;
  };
  return ctx.quotes.commit(
    body.quoteId,
    { customerId: userId, book },
    {
      requestKey,
      replay,
      post: async ({ figures: f }) =>
        (await replay()) ?? holdApplication(ctx, book, userId, body.signature, f, requestKey),
    },
  );
}

/** The application's hold on the pool, with the signed agreement kept (a refused hold deletes it). */
async function holdApplication(
  ctx: LoansContext,
  book: Book,
  userId: number,
  signatureUpload: string,
  f: QuoteFigures,
  requestKey: string,
): Promise<LoanRecord> {
  const signature = await ctx.uploads.fileForOwner(userId, signatureUpload);
  if (!signature) throw new ApiError(Code.NOT_FOUND);
  const language = f.language ?? 'en';
  const lines = await agreementOf(ctx, userId, f, language);
  const english = language === 'en' ? lines : await agreementOf(ctx, userId, f, 'en');
  const pdf = await agreementPdf({ language, lines, english }, signature, new Date(ctx.now()));
  const sha = sha256Hex(pdf);
  const key = await ctx.storage.put(pdf, 'application/pdf');
  const figures = loanFiguresOf(termsOf(f), today(ctx));
  const held = await ctx.ledger
    .hold({
      book,
      accountId: await poolAccount(ctx, f.asset),
      amount: f.amount,
      idempotencyKey: requestKey,
      actor: `customer:${userId}`,
      reference: `loan-apply:${f.productId}`,
      attach: ctx.attachments.applyHold.with(
        applyData(userId, f, figures, { requestKey, signatureUpload, agreement: lines, key, sha }),
      ),
    })
    .catch(async (error: unknown) => {
      await ctx.storage.delete(key);
      if (
        error instanceof LedgerError &&
        error.reason === 'insufficient_funds' &&
        error.accountId === (await poolAccount(ctx, f.asset))
      )
        throw new ApiError(Code.SOLD_OUT, { reason: 'pool' });
      throw error;
    });
  const id = held.attached ?? (await loanByRequestKey(ctx.db, requestKey))?.id;
  const row = id === undefined ? null : await loanById(ctx.db, id);
  if (!row) throw new Error(`loan of ${requestKey} not found`);
  return wireLoan(ctx, row);
}

/** The application as the hold's attachment carries it. */
function applyData(
  userId: number,
  f: QuoteFigures,
  figures: ReturnType<typeof loanFiguresOf>,
  signed: { requestKey: string; signatureUpload: string; agreement: string[]; key: string; sha: string },
): ApplyData {
  return {
    userId,
    productId: f.productId,
    productName: f.productName,
    asset: f.asset,
    amount: f.amount.toString(),
    termDays: f.termDays,
    dailyPpm: f.dailyPpm.toString(),
    interestFreeDays: f.interestFreeDays,
    lateDailyPpm: f.lateDailyPpm.toString(),
    lateCapPpm: f.lateCapPpm.toString(),
    totalInterest: figures.totalInterest.toString(),
    lateCap: figures.lateCap.toString(),
    apr: figures.apr,
    requestKey: signed.requestKey,
    signatureUpload: signed.signatureUpload,
    agreement: signed.agreement,
    agreementKey: signed.key,
    agreementSha256: signed.sha,
  };
}
