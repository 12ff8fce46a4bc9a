import { join } from 'node:path';
import {
  ASSET_SCALES,
  type Asset,
  Code,
  CREDIT_SCORE_MAX,
  interpolate,
  isLanguage,
  LOAN_ASSETS,
  LOAN_WITHDRAWAL_DAYS,
  type LoanDetail,
  type LoanLimit,
  type LoanPayoff,
  type LoanPool,
  type LoanProduct,
  type LoanProductAdmin,
  type LoanProductBody,
  type LoanProductsData,
  type LoanQuote,
  type LoanRecord,
  type LoanRepayment,
  type LoanState,
  type OverdueLoan,
  parseMinor,
  formatMinor as toDecimal,
} from '@swx/contract';
import { z } from 'zod/mini';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { localeTexts } from '../../platform/texts.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import { computeCreditScore } from '../kyc/kyc.credit.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import { type Book, LedgerError, type LedgerService } from '../ledger/ledger.service.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import { type NoticeKind, type NoticesService, renderNotice } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { ppmOf, ppmText, utcDay } from '../products/figures.ts';
import { bigintText, Quotes } from '../products/quotes.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import { type SettledProduct, type SettlementRunner, settlementKey } from '../products/settlement.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { agreementLines, agreementPdf, sha256Hex } from './loans.agreement.ts';
import {
  addDays,
  allocate,
  chargeOfDay,
  daysBetween,
  interestThrough,
  type LoanTerms,
  lateThrough,
  loanFiguresOf,
  type Owed,
  owedTotal,
  PPM,
  type PrincipalPaid,
} from './loans.figures.ts';
import {
  type Allocation,
  applyToLoan,
  chargesOf,
  creditFactsOf,
  decideProof,
  insertBalanceRepayment,
  insertCharge,
  insertLoan,
  insertProduct,
  insertProofRepayment,
  type LoanProductFields,
  type LoanProductRow,
  type LoanRow,
  listProducts,
  loanById,
  loanByRequestKey,
  loansOf,
  lockRepaid,
  markBooked,
  markDisbursed,
  markOverdue,
  markProofApplied,
  markRejected,
  type NewLoan,
  overdueLoans,
  owedByCustomer,
  pendingLoans,
  pendingProofs,
  poolFigures,
  principalPaidOf,
  productById,
  type RepaymentRow,
  repaymentById,
  repaymentByRequestKey,
  repaymentsOf,
  servicedLoans,
  takeReminders,
  unappliedProofs,
  unbookedLoans,
  updateProduct,
} from './loans.repository.ts';

/** A customer's own account of what they owe on their loans (principal + interest + late cost charged). */
export const LOAN = 'loan';
/** Per asset (live book), platform accounts that may not go negative: the pool, what is still to accrue, what loans earned. */
export const POOL = 'loan_pool_1';
export const UNEARNED = 'loan_unearned_1';
export const INCOME = 'loan_income_1';
const BOOK: Book = 'live';

/**
 * The share of a product's maximum a credit score opens (DESIGN: KYC-verified customers get higher
 * amounts, spec §6): verified identity gives 80 points (half the maximum); loans repaid on time
 * raise it to three quarters and the whole maximum.
 */
export const LIMIT_TIERS: readonly { minScore: number; sharePpm: bigint }[] = [
  { minScore: 80, sharePpm: 500_000n },
  { minScore: 90, sharePpm: 750_000n },
  { minScore: 100, sharePpm: 1_000_000n },
];

/** The quote's figures: exactly what the application signs and the loan posts. */
const quoteFigures = z.object({
  productId: z.int(),
  productName: z.string(),
  asset: z.enum(LOAN_ASSETS),
  amount: bigintText,
  termDays: z.int(),
  dailyPpm: bigintText,
  interestFreeDays: z.int(),
  lateDailyPpm: bigintText,
  lateCapPpm: bigintText,
});
type QuoteFigures = z.output<typeof quoteFigures>;

/** What the `loan` entries' attachment writes: nothing (pool funding), the booking, or a day's charge. */
type LoanEntryData =
  | { op: 'fund' }
  | { op: 'book'; loanId: number }
  | { op: 'charge'; loanId: number; day: string; interest: string; late: string };

type RepayData = {
  loanId: number;
  userId: number;
  amount: string;
  day: string;
  requestKey: string;
  late: string;
  interest: string;
  principal: string;
  close: 'repaid' | 'withdrawn' | null;
  /** An approved proof being applied (its row exists); null for a repayment from the balance. */
  proofId: number | null;
  /** What was repaid when the allocation was made (`principal:interest:late`): another repayment since refuses this one. */
  paidBefore: string;
  notice: Record<string, string> | null;
};

/** An application as its hold carries it (bigints as text: attachment data is JSON). */
type BigFields = 'amount' | 'dailyPpm' | 'lateDailyPpm' | 'lateCapPpm' | 'totalInterest' | 'lateCap';
type ApplyData = Omit<NewLoan, BigFields> & Record<BigFields, string>;

const PAGE = 200;

/** The mails' subjects; their text is the notice's, in the customer's language. */
const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));

export class LoansService {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  private readonly audit: AuditService;
  private readonly notices: NoticesService;
  private readonly kyc: Pick<KycService, 'stateOf'>;
  private readonly uploads: Pick<UploadsService, 'takeInTx' | 'fileForOwner'>;
  private readonly storage: FileStorage;
  private readonly params: Pick<ParamsService, 'get'>;
  private readonly now: () => number;
  private readonly logger: Logger | undefined;
  private readonly mail: { mailer: Mailer; customers: Pick<CustomerDirectory, 'get'> } | null;
  private readonly platformAddress: string | null;
  private readonly quotes: Quotes<typeof quoteFigures>;
  private readonly loanEntry;
  private readonly repayEntry;
  private readonly applyHold;
  private readonly proofHold;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    audit: AuditService;
    notices: NoticesService;
    kyc: Pick<KycService, 'stateOf'>;
    uploads: Pick<UploadsService, 'takeInTx' | 'fileForOwner'>;
    storage: FileStorage;
    params: Pick<ParamsService, 'get'>;
    quoteKeys: PurposeKeys;
    now?: () => number;
    logger?: Logger;
    /** Reminders and overdue notices are also mailed to the customer's address, when they have one. */
    mail?: { mailer: Mailer; customers: Pick<CustomerDirectory, 'get'> };
    /**
     * The platform's own address on the EVM chain (the hot wallet's: the development chain's in
     * the sandbox, SIGNER_ADDRESS in production): where a repayment by transfer of USDT or ETH is
     * sent when no `loan.repaymentAddress.<asset>` parameter names another. Not a customer's
     * deposit address, which the deposit watcher would credit a second time.
     */
    platformAddress?: string | null;
  }) {
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.audit = deps.audit;
    this.notices = deps.notices;
    this.kyc = deps.kyc;
    this.uploads = deps.uploads;
    this.storage = deps.storage;
    this.params = deps.params;
    this.now = deps.now ?? Date.now;
    this.logger = deps.logger;
    this.mail = deps.mail ?? null;
    this.platformAddress = deps.platformAddress ?? null;
    // Ten minutes: time to read the sheet and the agreement and to draw a signature.
    this.quotes = new Quotes(
      { name: 'loan.v1', validSeconds: 600, figures: quoteFigures },
      { keys: deps.quoteKeys, db: deps.db, now: this.now },
    );
    this.loanEntry = this.ledger.attachment(
      'loan',
      async (tx, rows: readonly { entryId: number; data: LoanEntryData }[]) => {
        for (const { entryId, data } of rows) {
          if (data.op === 'book') await markBooked(tx, data.loanId, entryId);
          else if (data.op === 'charge')
            await insertCharge(tx, {
              loanId: data.loanId,
              day: data.day,
              interest: BigInt(data.interest),
              late: BigInt(data.late),
              entryId,
            });
        }
        return new Map();
      },
    );
    this.repayEntry = this.ledger.attachment(
      'repayment',
      async (tx, rows: readonly { entryId: number; data: RepayData }[]) => {
        const out = new Map<number, number>();
        for (const { entryId, data } of rows) {
          // Two repayments of one loan at once: the second was allocated on figures the first changed.
          const now = await lockRepaid(tx, data.loanId);
          if (!now || now.paid !== data.paidBefore || (now.state !== 'repaying' && now.state !== 'expired'))
            throw new ApiError(Code.PRICE_CHANGED, { reason: 'repaid' });
          const a = {
            late: BigInt(data.late),
            interest: BigInt(data.interest),
            principal: BigInt(data.principal),
          };
          let id: number;
          if (data.proofId === null)
            id = await insertBalanceRepayment(
              tx,
              {
                loanId: data.loanId,
                userId: data.userId,
                amount: BigInt(data.amount),
                day: data.day,
                requestKey: data.requestKey,
                entryId,
              },
              a,
            );
          else {
            id = data.proofId;
            await markProofApplied(tx, id, { ...a, day: data.day, entryId });
          }
          await applyToLoan(tx, data.loanId, { ...a, day: data.day, close: data.close });
          if (data.notice) await this.notices.notifyInTx(tx, data.userId, 'en', 'loan_repaid', data.notice);
          out.set(entryId, id);
        }
        return out;
      },
    );
    // An application: the loan row with its signed agreement, the signature taken, the agreement's hash audited.
    this.applyHold = this.ledger.holdAttachment(
      'loan_apply',
      async (tx, rows: readonly { holdId: number; data: ApplyData }[]) => {
        const out = new Map<number, number>();
        for (const { holdId, data } of rows) {
          const loan: NewLoan = {
            ...data,
            amount: BigInt(data.amount),
            dailyPpm: BigInt(data.dailyPpm),
            lateDailyPpm: BigInt(data.lateDailyPpm),
            lateCapPpm: BigInt(data.lateCapPpm),
            totalInterest: BigInt(data.totalInterest),
            lateCap: BigInt(data.lateCap),
          };
          let id: number;
          try {
            id = await insertLoan(tx, loan, holdId);
          } catch (error) {
            const { code, constraint } = error as { code?: string; constraint?: string };
            if (code === '23505' && constraint === 'loans_one_open_key')
              throw new ApiError(Code.ALREADY_PURCHASED);
            throw error;
          }
          await this.uploads.takeInTx(
            tx,
            data.userId,
            [{ path: 'signature', id: data.signatureUpload, purpose: 'loan_signature' }],
            `loan:${id}`,
          );
          await this.audit.appendInTx(tx, [
            {
              actor: `customer:${data.userId}`,
              action: 'loan.agreement.signed',
              subject: `loan:${id}`,
              data: {
                sha256: data.agreementSha256,
                amount: data.amount,
                asset: data.asset,
                termDays: data.termDays,
              },
            },
          ]);
          out.set(holdId, id);
        }
        return out;
      },
    );
    this.proofHold = this.ledger.holdAttachment(
      'loan_repayment_proof',
      async (
        tx,
        rows: readonly {
          holdId: number;
          data: {
            loanId: number;
            userId: number;
            amount: string;
            requestKey: string;
            txHash: string;
            address: string;
            proof: string;
          };
        }[],
      ) => {
        const out = new Map<number, number>();
        for (const { holdId, data } of rows) {
          const id = await insertProofRepayment(tx, {
            ...data,
            amount: BigInt(data.amount),
            proofUpload: data.proof,
            holdId,
          }).catch((error: unknown) => {
            if ((error as { code?: string }).code === '23505')
              throw new ApiError(Code.TRANSACTION_ALREADY_USED);
            throw error;
          });
          await this.uploads.takeInTx(
            tx,
            data.userId,
            [{ path: 'proof', id: data.proof, purpose: 'loan_repayment_proof' }],
            `loan_repayment:${id}`,
          );
          out.set(holdId, id);
        }
        return out;
      },
    );
  }

  today(): string {
    return utcDay(this.now());
  }

  // Accounts

  poolAccount(asset: Asset): Promise<number> {
    return this.ledger.productAccount(BOOK, asset, POOL);
  }

  unearnedAccount(asset: Asset): Promise<number> {
    return this.ledger.productAccount(BOOK, asset, UNEARNED);
  }

  incomeAccount(asset: Asset): Promise<number> {
    return this.ledger.productAccount(BOOK, asset, INCOME);
  }

  private async available(accountId: number): Promise<bigint> {
    const a = await this.ledger.account(accountId);
    return a ? a.balance - a.held : 0n;
  }

  // Products and limits

  private wireProduct(p: LoanProductRow, poolFree: bigint): LoanProduct {
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
  async creditFacts(userId: number) {
    const f = await creditFactsOf(this.db, userId);
    return { repaidOnTime: f.repaidOnTime, everOverdue: f.everOverdue };
  }

  /** The customer's limit: a share of each product's maximum from the credit score, identity verified first. */
  async limit(userId: number): Promise<LoanLimit & { sharePpm: bigint }> {
    const [kycState, facts] = await Promise.all([this.kyc.stateOf(userId), creditFactsOf(this.db, userId)]);
    const score = computeCreditScore({ kycState, loans: facts });
    const sharePpm =
      kycState === 'verified'
        ? LIMIT_TIERS.filter((t) => score.score >= t.minScore).reduce(
            (s, t) => (t.sharePpm > s ? t.sharePpm : s),
            0n,
          )
        : 0n;
    const applied = new Map(score.rules.map((r) => [r.key, r]));
    return {
      kycState,
      score: score.score,
      maxScore: CREDIT_SCORE_MAX,
      share: ppmText(sharePpm),
      sharePpm,
      tiers: LIMIT_TIERS.map((t) => ({ minScore: t.minScore, share: ppmText(t.sharePpm) })),
      steps: (['kycVerified', 'loanRepaidOnTime', 'noLoanOverdue'] as const).map((key) => ({
        key,
        points: applied.get(key)?.points ?? 0,
        done: applied.get(key)?.applied ?? false,
      })),
      openLoanId: facts.openLoanId,
    };
  }

  private limitOf(p: LoanProductRow, sharePpm: bigint): bigint {
    return (p.maxMinor * sharePpm) / PPM;
  }

  async products(userId: number): Promise<LoanProductsData> {
    const [{ sharePpm, ...limit }, rows] = await Promise.all([this.limit(userId), listProducts(this.db)]);
    const products = await Promise.all(
      rows
        .filter((p) => p.enabled)
        .map(async (p) => ({
          ...this.wireProduct(p, await this.available(await this.poolAccount(p.asset))),
          myLimit: toDecimal(this.limitOf(p, sharePpm), ASSET_SCALES[p.asset]),
        })),
    );
    return { limit, products };
  }

  // Quote and apply

  private amountOf(asset: Asset, text: string, extra: Record<string, string> = {}): bigint {
    try {
      const v = parseMinor(text, ASSET_SCALES[asset]);
      if (v <= 0n) throw new Error('zero');
      return v;
    } catch {
      throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset, ...extra });
    }
  }

  private async requireVerified(book: Book, userId: number): Promise<void> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const state = await this.kyc.stateOf(userId);
    if (state !== 'verified') throw new ApiError(Code.USER_NOT_AUTHENTICATED, { kycState: state });
  }

  /** The terms of a quote; the one source of every figure shown, signed and posted. */
  private termsOf(f: QuoteFigures): LoanTerms {
    return {
      amount: f.amount,
      termDays: f.termDays,
      dailyPpm: f.dailyPpm,
      interestFreeDays: f.interestFreeDays,
      lateDailyPpm: f.lateDailyPpm,
      lateCapPpm: f.lateCapPpm,
    };
  }

  private agreementOf(userId: number, f: QuoteFigures): string[] {
    const scale = ASSET_SCALES[f.asset];
    const figures = loanFiguresOf(this.termsOf(f), this.today());
    return agreementLines({
      customer: `customer ${userId}`,
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
    });
  }

  /** Checks an application's request and answers its figures (10022, 10023, 10013, 10024, 10044). */
  private async figures(userId: number, body: { productId: number; amount: string; termDays: number }) {
    const p = await productById(this.db, body.productId);
    if (!p) throw new ApiError(Code.NOT_FOUND);
    if (!p.enabled) throw new ApiError(Code.SOLD_OUT, { reason: 'disabled' });
    if (!p.terms.includes(body.termDays))
      throw new ApiError(Code.LOAN_PERIOD_WRONG, { terms: p.terms.join(',') });
    const limit = await this.limit(userId);
    if (limit.openLoanId !== null)
      throw new ApiError(Code.ALREADY_PURCHASED, { loanId: String(limit.openLoanId) });
    const scale = ASSET_SCALES[p.asset];
    const myLimit = this.limitOf(p, limit.sharePpm);
    const bounds = {
      minimum: toDecimal(p.minMinor, scale),
      maximum: toDecimal(p.maxMinor, scale),
      limit: toDecimal(myLimit, scale),
    };
    const amount = this.amountOf(p.asset, body.amount, bounds);
    if (amount < p.minMinor || amount > p.maxMinor || amount > myLimit)
      throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset: p.asset, ...bounds });
    if ((await this.available(await this.poolAccount(p.asset))) < amount)
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

  async quote(
    book: Book,
    userId: number,
    body: { productId: number; amount: string; termDays: number },
  ): Promise<LoanQuote> {
    await this.requireVerified(book, userId);
    const { f, myLimit } = await this.figures(userId, body);
    const issuedAt = Math.floor(this.now() / 1000);
    const scale = ASSET_SCALES[f.asset];
    const d = (v: bigint) => toDecimal(v, scale);
    const s = loanFiguresOf(this.termsOf(f), this.today());
    return {
      ...this.quotes.issue({ customerId: userId, book }, issuedAt, f),
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
      agreement: this.agreementOf(userId, f),
      myLimit: d(myLimit),
    };
  }

  /**
   * Applies at a quote with the drawn signature: the agreement (the quote's clauses and the
   * signature) is made a PDF and kept; the pool reserves the amount (a hold), and the hold's
   * transaction writes the application, takes the signature and audits the agreement's SHA-256.
   * Answered 20001: staff decide.
   */
  async apply(
    book: Book,
    userId: number,
    body: { quoteId: string; requestId: string; signature: string; acceptAgreement: true },
  ): Promise<LoanRecord> {
    await this.requireVerified(book, userId);
    const requestKey = `loan-apply:${userId}:${body.requestId}`;
    const replay = async () => {
      const row = await loanByRequestKey(this.db, requestKey);
      return row && row.userId === userId ? this.wireLoan(row) : null;
    };
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey,
        replay,
        post: async ({ figures: f }) => {
          const done = await replay();
          if (done) return done;
          const signature = await this.uploads.fileForOwner(userId, body.signature);
          if (!signature) throw new ApiError(Code.NOT_FOUND);
          const t = this.termsOf(f);
          const lines = this.agreementOf(userId, f);
          const pdf = await agreementPdf(lines, signature, new Date(this.now()));
          const sha = sha256Hex(pdf);
          const key = await this.storage.put(pdf, 'application/pdf');
          const figures = loanFiguresOf(t, this.today());
          const held = await this.ledger
            .hold({
              book,
              accountId: await this.poolAccount(f.asset),
              amount: f.amount,
              idempotencyKey: requestKey,
              actor: `customer:${userId}`,
              reference: `loan-apply:${f.productId}`,
              attach: this.applyHold.with({
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
                requestKey,
                signatureUpload: body.signature,
                agreement: lines,
                agreementKey: key,
                agreementSha256: sha,
              }),
            })
            .catch(async (error: unknown) => {
              await this.storage.delete(key);
              if (
                error instanceof LedgerError &&
                error.reason === 'insufficient_funds' &&
                error.accountId === (await this.poolAccount(f.asset))
              )
                throw new ApiError(Code.SOLD_OUT, { reason: 'pool' });
              throw error;
            });
          const id = held.attached ?? (await loanByRequestKey(this.db, requestKey))?.id;
          const row = id === undefined ? null : await loanById(this.db, id);
          if (!row) throw new Error(`loan of ${requestKey} not found`);
          return this.wireLoan(row);
        },
      },
    );
  }

  // Decisions (loans.review.ts calls these in the decision's transaction)

  async pendingApplications(after: number | null, limit: number): Promise<LoanRow[]> {
    return pendingLoans(this.db, after, limit);
  }

  loanRow(id: number, tx: Queryable = this.db): Promise<LoanRow | null> {
    return loanById(tx, id);
  }

  async recordApproval(tx: Queryable, id: number, entryId: number | null): Promise<LoanRow> {
    const loan = await loanById(tx, id, true);
    if (!loan) throw new Error(`loan ${id} is gone`);
    const day = this.today();
    await markDisbursed(tx, id, { day, dueDay: addDays(day, loan.termDays), entryId });
    return loan;
  }

  recordRejection(tx: Queryable, id: number, reason: string): Promise<void> {
    return markRejected(tx, id, reason);
  }

  /**
   * After the payout, the customer's debt on the ledger: their `loan` account takes the amount,
   * the unearned account takes the interest and late cost the agreement can charge at most, both
   * against `loans_receivable`. One entry per loan (key `loan-book:<id>`); a job retries it.
   */
  async book(loan: LoanRow): Promise<void> {
    if (loan.bookedEntryId !== null || loan.disbursedDay === null) return;
    const unearned = loan.totalInterest + loan.lateCap;
    const postings: Posting[] = [
      { accountId: await this.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN), amount: loan.amount },
      {
        accountId: await this.ledger.systemAccount(BOOK, loan.asset, 'loans_receivable'),
        amount: -(loan.amount + unearned),
      },
    ];
    if (unearned > 0n) postings.push({ accountId: await this.unearnedAccount(loan.asset), amount: unearned });
    await this.ledger.transfer({
      book: BOOK,
      kind: 'loan',
      idempotencyKey: `loan-book:${loan.id}`,
      actor: 'system',
      reference: `loan:${loan.id}`,
      postings,
      attach: this.loanEntry.with({ op: 'book', loanId: loan.id }),
    });
  }

  async bookReceivables(): Promise<number> {
    let count = 0;
    for (;;) {
      const rows = await unbookedLoans(this.db, PAGE);
      for (const row of rows) await this.book(row);
      count += rows.length;
      if (rows.length < PAGE) return count;
    }
  }

  // Servicing

  /** The settled product of one asset: each day's interest or late cost, from the unearned account to the customer's debt. */
  servicing(asset: Asset): SettledProduct<LoanRow & { ownerId: number; paidPrincipal: PrincipalPaid[] }> {
    return {
      name: `loans.${asset.toLowerCase()}`,
      books: [BOOK],
      asset,
      source: { name: UNEARNED, account: () => this.unearnedAccount(asset), guarded: true },
      creditKind: LOAN,
      entryKind: 'loan',
      pageHoldings: async (_book, afterId, limit, day) =>
        (await servicedLoans(this.db, asset, afterId, limit, day)).map((l) => ({ ...l, ownerId: l.userId })),
      paymentFor: (h, day) => {
        const c = this.chargeOf(h, h.paidPrincipal, day);
        return c.interest + c.late;
      },
      reference: (h) => `loan:${h.id}`,
      attach: (h, day) => {
        const c = this.chargeOf(h, h.paidPrincipal, day);
        return this.loanEntry.with({
          op: 'charge',
          loanId: h.id,
          day,
          interest: c.interest.toString(),
          late: c.late.toString(),
        });
      },
    };
  }

  private chargeOf(loan: LoanRow, paid: readonly PrincipalPaid[], day: string) {
    if (loan.disbursedDay === null) return { interest: 0n, late: 0n };
    return chargeOfDay(loan, loan.disbursedDay, paid, day);
  }

  /**
   * Posts the charges of the days through today that the settlement has not posted yet, with the
   * settlement's own keys and requests (a day's charge is fixed once it starts: it depends only on
   * repayments before it): a repayment then sees every day charged, and the runner, coming later,
   * finds those days paid.
   */
  private async catchUp(loan: LoanRow): Promise<void> {
    if (loan.disbursedDay === null) return;
    await this.book(loan);
    const product = this.servicing(loan.asset);
    const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
    const holding = { ...loan, ownerId: loan.userId, paidPrincipal: paid };
    const today = this.today();
    const source = await this.unearnedAccount(loan.asset);
    const account = await this.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN);
    for (
      let day = addDays(loan.chargedThrough ?? loan.disbursedDay, 1);
      day <= today;
      day = addDays(day, 1)
    ) {
      const amount = await product.paymentFor(holding, day);
      if (amount === 0n) continue;
      await this.ledger.transfer({
        book: BOOK,
        kind: product.entryKind,
        idempotencyKey: settlementKey(product.name, loan.id, day),
        actor: 'system',
        reference: product.reference?.(holding, day) ?? `${product.name}:${loan.id}`,
        ...(product.attach ? { attach: product.attach(holding, day, amount) } : {}),
        postings: [
          { accountId: source, amount: -amount },
          { accountId: account, amount },
        ],
      });
    }
  }

  /**
   * What a loan owes today: the charges of every day through today (posted or not; today's is
   * charged on the principal owed when today started, so it is known), less what was repaid.
   */
  private owedToday(loan: LoanRow, paid: readonly PrincipalPaid[]): Owed {
    if (loan.disbursedDay === null) return { principal: 0n, interest: 0n, late: 0n };
    const k = daysBetween(loan.disbursedDay, this.today());
    return {
      principal: loan.amount - loan.principalPaid,
      interest: interestThrough(loan, loan.disbursedDay, paid, k) - loan.interestPaid,
      late: lateThrough(loan, loan.disbursedDay, paid, k) - loan.latePaid,
    };
  }

  /**
   * One run of the daily job: book new loans, settle every asset's due days, then mark loans past
   * their due date overdue and send the reminders 3 days and 1 day before it.
   */
  async runDaily(runner: SettlementRunner): Promise<string[]> {
    await this.bookReceivables();
    const unfunded: string[] = [];
    for (const asset of LOAN_ASSETS) {
      const days = await runner.settleDue(this.servicing(asset));
      for (const d of days) if (d.status === 'unfunded') unfunded.push(`${d.product} ${d.day}`);
    }
    await this.markOverdue();
    await this.remind();
    await this.applyProofs();
    return unfunded;
  }

  /** A notice, and the same text mailed in the customer's language (a failed mail is logged; the mailer keeps it). */
  private async tell(
    userId: number,
    kind: NoticeKind,
    params: Record<string, string>,
    subject: keyof (typeof TEXT)['en']['mail'],
  ): Promise<void> {
    await this.notices.notify(userId, 'en', kind, params);
    if (!this.mail) return;
    const customer = await this.mail.customers.get(userId);
    if (!customer?.email) return;
    const language = isLanguage(customer.language) ? customer.language : 'en';
    await this.mail.mailer
      .send({
        to: customer.email,
        subject: interpolate(TEXT[language].mail[subject], {}, language),
        text: renderNotice(kind, language, params),
      })
      .catch((error: unknown) =>
        this.logger?.error({ err: error, userId, kind }, 'a loan mail was not sent'),
      );
  }

  async markOverdue(): Promise<number> {
    const rows = await markOverdue(this.db, this.today());
    for (const loan of rows) {
      const scale = ASSET_SCALES[loan.asset];
      const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
      await this.tell(
        loan.userId,
        'loan_overdue',
        {
          amount: toDecimal(loan.amount, scale),
          asset: loan.asset,
          dueDate: loan.dueDay ?? '',
          lateRate: `${ppmText(loan.lateDailyPpm * 100n)} %`,
          lateCap: toDecimal(loan.lateCap, scale),
          owed: toDecimal(owedTotal(this.owedToday(loan, paid)), scale),
        },
        'overdueSubject',
      );
    }
    return rows.length;
  }

  async remind(): Promise<number> {
    let count = 0;
    for (const days of [3, 1] as const) {
      for (const loan of await takeReminders(this.db, addDays(this.today(), days), days)) {
        const scale = ASSET_SCALES[loan.asset];
        const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
        await this.tell(
          loan.userId,
          days === 3 ? 'loan_due_in_three_days' : 'loan_due_tomorrow',
          {
            amount: toDecimal(loan.amount, scale),
            asset: loan.asset,
            dueDate: loan.dueDay ?? '',
            owed: toDecimal(owedTotal(this.owedToday(loan, paid)), scale),
          },
          'dueSoonSubject',
        );
        count++;
      }
    }
    return count;
  }

  // Repayment

  private async mine(book: Book, userId: number, id: number): Promise<LoanRow> {
    const row = await loanById(this.db, id);
    if (!row || row.userId !== userId || book !== 'live') throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  private open(loan: LoanRow): void {
    if (loan.state !== 'repaying' && loan.state !== 'expired')
      throw new ApiError(Code.WRONG_COLLECTION_STATUS);
  }

  private withdrawable(loan: LoanRow): boolean {
    return (
      loan.disbursedDay !== null &&
      loan.state === 'repaying' &&
      daysBetween(loan.disbursedDay, this.today()) <= LOAN_WITHDRAWAL_DAYS
    );
  }

  async repayAddresses(asset: Asset): Promise<{ asset: Asset; network: string; address: string }[]> {
    const network = asset === 'BTC' ? 'BTC' : `${asset}-EVM`;
    const address = await this.params.get(`loan.repaymentAddress.${asset}`);
    if (address) return [{ asset, network, address }];
    // The chain the platform follows carries USDT and ETH only.
    if (this.platformAddress && (asset === 'USDT' || asset === 'ETH'))
      return [{ asset, network, address: this.platformAddress.toLowerCase() }];
    return [];
  }

  async payoff(book: Book, userId: number, loanId: number): Promise<LoanPayoff> {
    const loan = await this.mine(book, userId, loanId);
    this.open(loan);
    const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
    const owed = this.owedToday(loan, paid);
    const scale = ASSET_SCALES[loan.asset];
    const d = (v: bigint) => toDecimal(v, scale);
    // Repaid today, no interest accrues after today: what the due date would have cost more.
    const saved =
      loan.disbursedDay === null
        ? 0n
        : interestThrough(loan, loan.disbursedDay, paid, loan.termDays) -
          interestThrough(loan, loan.disbursedDay, paid, daysBetween(loan.disbursedDay, this.today()));
    const available =
      (await this.ledger.balances(BOOK, userId)).find((b) => b.asset === loan.asset)?.available ?? 0n;
    return {
      loanId: loan.id,
      asset: loan.asset,
      day: this.today(),
      principal: d(owed.principal),
      interest: d(owed.interest),
      lateCost: d(owed.late),
      total: d(owedTotal(owed)),
      interestSaved: d(saved),
      withdrawable: this.withdrawable(loan),
      available: d(available),
      repayAddresses: await this.repayAddresses(loan.asset),
    };
  }

  /**
   * Repays from the wallet: ONE entry takes the amount from the wallet and the customer's debt,
   * and gives the principal part back to the pool and the interest and late cost to income; the
   * repayment that settles everything also returns what is left of the loan's unearned amount.
   */
  private async repayEntryOf(
    loan: LoanRow,
    amount: bigint | 'full',
    ids: { requestKey: string; proofId: number | null; withdraw: boolean },
  ): Promise<void> {
    await this.catchUp(loan);
    const fresh = await loanById(this.db, loan.id);
    if (!fresh) throw new Error(`loan ${loan.id} is gone`);
    this.open(fresh);
    const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
    const owed = this.owedToday(fresh, paid);
    const total = owedTotal(owed);
    const scale = ASSET_SCALES[loan.asset];
    const r = amount === 'full' ? total : amount;
    if (r <= 0n || r > total)
      throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, {
        asset: loan.asset,
        maximum: toDecimal(total, scale),
      });
    const a: Allocation = allocate(owed, r);
    const closes = r === total;
    const rest = closes
      ? fresh.totalInterest + fresh.lateCap - (fresh.interestCharged + fresh.lateCharged)
      : 0n;
    const postings: Posting[] = [];
    const add = (accountId: number, value: bigint) => {
      if (value !== 0n) postings.push({ accountId, amount: value });
    };
    add(await this.ledger.walletAccount(BOOK, loan.userId, loan.asset), -r);
    add(await this.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN), -r);
    add(await this.ledger.systemAccount(BOOK, loan.asset, 'loans_receivable'), r + rest);
    add(await this.poolAccount(loan.asset), a.principal);
    add(await this.incomeAccount(loan.asset), a.late + a.interest);
    add(await this.unearnedAccount(loan.asset), -rest);
    const close = closes ? (ids.withdraw ? 'withdrawn' : 'repaid') : null;
    await this.ledger.transfer({
      book: BOOK,
      kind: 'repayment',
      idempotencyKey: ids.requestKey,
      actor: `customer:${loan.userId}`,
      reference: `loan:${loan.id}`,
      postings,
      attach: this.repayEntry.with({
        loanId: loan.id,
        userId: loan.userId,
        amount: r.toString(),
        day: this.today(),
        requestKey: ids.requestKey,
        late: a.late.toString(),
        interest: a.interest.toString(),
        principal: a.principal.toString(),
        close,
        proofId: ids.proofId,
        paidBefore: `${fresh.principalPaid}:${fresh.interestPaid}:${fresh.latePaid}`,
        notice: close ? { amount: toDecimal(loan.amount, scale), asset: loan.asset } : null,
      }),
    });
  }

  async repay(
    book: Book,
    userId: number,
    body: { loanId: number; requestId: string; full: boolean; amount?: string | undefined },
    withdraw = false,
  ): Promise<LoanDetail> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const loan = await this.mine(book, userId, body.loanId);
    const requestKey = `loan-repay:${userId}:${body.requestId}`;
    const done = await repaymentByRequestKey(this.db, requestKey);
    if (done) {
      if (done.loanId !== loan.id)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'requestId', issue: 'in_use' }]);
      return this.detail(book, userId, loan.id);
    }
    this.open(loan);
    if (withdraw && !this.withdrawable(loan))
      throw new ApiError(Code.LOAN_PERIOD_WRONG, { withdrawalDays: String(LOAN_WITHDRAWAL_DAYS) });
    const amount = body.full || withdraw ? 'full' : this.amountOf(loan.asset, body.amount ?? '', {});
    await this.repayEntryOf(loan, amount, { requestKey, proofId: null, withdraw });
    return this.detail(book, userId, loan.id);
  }

  async withdraw(
    book: Book,
    userId: number,
    body: { loanId: number; requestId: string },
  ): Promise<LoanDetail> {
    return this.repay(book, userId, { ...body, full: true }, true);
  }

  /** Repayment by a transfer with a proof: the declared amount is held on external clearing until staff decide. */
  async repayWithProof(
    book: Book,
    userId: number,
    body: { loanId: number; amount: string; proof: string; txHash: string; address: string },
  ): Promise<LoanRepayment> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const loan = await this.mine(book, userId, body.loanId);
    this.open(loan);
    const addresses = await this.repayAddresses(loan.asset);
    if (!addresses.some((a) => a.address.toLowerCase() === body.address.toLowerCase()))
      throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
    const amount = this.amountOf(loan.asset, body.amount);
    const txHash = body.txHash.toLowerCase().replace(/^0x/, '');
    const requestKey = `loan-proof:${userId}:${txHash}`;
    const done = await repaymentByRequestKey(this.db, requestKey);
    if (done) return wireRepayment(done);
    const held = await this.ledger.hold({
      book: BOOK,
      accountId: await this.ledger.systemAccount(BOOK, loan.asset, 'external_clearing'),
      amount,
      idempotencyKey: requestKey,
      actor: `customer:${userId}`,
      reference: `loan:${loan.id}`,
      attach: this.proofHold.with({
        loanId: loan.id,
        userId,
        amount: amount.toString(),
        requestKey,
        txHash,
        address: body.address,
        proof: body.proof,
      }),
    });
    const id = held.attached ?? (await repaymentByRequestKey(this.db, requestKey))?.id;
    const row = id === undefined ? null : await repaymentById(this.db, id);
    if (!row) throw new Error(`repayment of ${requestKey} not found`);
    return wireRepayment(row);
  }

  pendingProofs(after: number | null, limit: number): Promise<RepaymentRow[]> {
    return pendingProofs(this.db, after, limit);
  }

  repaymentRow(id: number): Promise<RepaymentRow | null> {
    return repaymentById(this.db, id);
  }

  recordProofDecision(tx: Queryable, id: number, decision: 'approved' | 'rejected', reason: string | null) {
    return decideProof(tx, id, decision, reason);
  }

  /**
   * Approved proofs whose money reached the wallet are applied to their loan (at most what it owes
   * today; the rest stays in the wallet). Run after each approval and every minute.
   */
  async applyProofs(): Promise<number> {
    let count = 0;
    for (const proof of await unappliedProofs(this.db, PAGE)) {
      const loan = await loanById(this.db, proof.loanId);
      if (!loan) continue;
      try {
        const paid = (await principalPaidOf(this.db, [loan.id])).get(loan.id) ?? [];
        const open = loan.state === 'repaying' || loan.state === 'expired';
        const owed = open ? owedTotal(this.owedToday(loan, paid)) : 0n;
        if (owed === 0n) {
          // Nothing to apply: the money stays in the wallet (0 marks the proof as dealt with).
          await markProofApplied(this.db, proof.id, {
            late: 0n,
            interest: 0n,
            principal: 0n,
            day: this.today(),
            entryId: 0,
          });
          continue;
        }
        await this.repayEntryOf(loan, proof.amount < owed ? proof.amount : 'full', {
          requestKey: `loan-proof-apply:${proof.id}`,
          proofId: proof.id,
          withdraw: false,
        });
        count++;
      } catch (error) {
        this.logger?.warn(
          { err: error, proof: proof.id },
          'an approved loan repayment proof could not be applied yet',
        );
      }
    }
    return count;
  }

  // Reads

  async loans(book: Book, userId: number, state: LoanState | undefined): Promise<LoanRecord[]> {
    if (book !== 'live') return [];
    const rows = await loansOf(this.db, userId, state ?? null);
    const paid = await principalPaidOf(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => this.wireLoan(r, paid.get(r.id) ?? []));
  }

  async detail(book: Book, userId: number, id: number): Promise<LoanDetail> {
    const loan = await this.mine(book, userId, id);
    const [paid, charges, repayments] = await Promise.all([
      principalPaidOf(this.db, [loan.id]).then((m) => m.get(loan.id) ?? []),
      chargesOf(this.db, loan.id),
      repaymentsOf(this.db, loan.id),
    ]);
    const scale = ASSET_SCALES[loan.asset];
    const d = (v: bigint) => toDecimal(v, scale);
    return {
      ...this.wireLoan(loan, paid),
      schedule: [
        {
          dueDate: loan.dueDay ?? addDays(this.today(), loan.termDays),
          principal: d(loan.amount),
          interest: d(loan.totalInterest),
          total: d(loan.amount + loan.totalInterest),
        },
      ],
      accruals: charges.map((c) => ({ day: c.day, interest: d(c.interest), lateCost: d(c.late) })),
      repayments: repayments.map(wireRepayment),
    };
  }

  wireLoan(loan: LoanRow, paid: readonly PrincipalPaid[] = []): LoanRecord {
    const scale = ASSET_SCALES[loan.asset];
    const d = (v: bigint) => toDecimal(v, scale);
    const open = loan.state === 'repaying' || loan.state === 'expired';
    const owed = open
      ? this.owedToday(loan, paid)
      : loan.state === 'pending'
        ? { principal: loan.amount, interest: 0n, late: 0n }
        : { principal: 0n, interest: 0n, late: 0n };
    return {
      id: loan.id,
      productId: loan.productId,
      productName: loan.productName,
      asset: loan.asset,
      amount: d(loan.amount),
      termDays: loan.termDays,
      dailyRate: ppmText(loan.dailyPpm),
      interestFreeDays: loan.interestFreeDays,
      lateDailyRate: ppmText(loan.lateDailyPpm),
      lateCostCap: d(loan.lateCap),
      totalInterest: d(loan.totalInterest),
      totalPayable: d(loan.amount + loan.totalInterest),
      apr: loan.apr,
      state: loan.state,
      appliedAt: new Date(loan.createdAt).toISOString(),
      disbursedAt: loan.disbursedDay,
      interestFrom:
        loan.disbursedDay === null
          ? null
          : addDays(loan.disbursedDay, Math.min(loan.interestFreeDays, loan.termDays) + 1),
      dueDate: loan.dueDay,
      withdrawableUntil: loan.disbursedDay === null ? null : addDays(loan.disbursedDay, LOAN_WITHDRAWAL_DAYS),
      closedAt: loan.closedAt === null ? null : new Date(loan.closedAt).toISOString(),
      outstanding: {
        principal: d(owed.principal),
        interest: d(owed.interest),
        lateCost: d(owed.late),
        total: d(owedTotal(owed)),
      },
      paid: {
        principal: d(loan.principalPaid),
        interest: d(loan.interestPaid),
        lateCost: d(loan.latePaid),
        total: d(loan.principalPaid + loan.interestPaid + loan.latePaid),
      },
      reason: loan.reason,
      hasAgreement: true,
    };
  }

  /** The signed agreement of the owner's loan; anyone else's: nothing. */
  async agreementForOwner(userId: number, id: number): Promise<Uint8Array | null> {
    const loan = await loanById(this.db, id);
    if (!loan || loan.userId !== userId) return null;
    return (await this.storage.get(loan.agreementKey))?.bytes ?? null;
  }

  /** The signed agreement for staff (the route checks the role and audits the view). */
  async agreementForStaff(id: number): Promise<{ bytes: Uint8Array; sha256: string } | null> {
    const loan = await loanById(this.db, id);
    if (!loan) return null;
    const file = await this.storage.get(loan.agreementKey);
    return file ? { bytes: file.bytes, sha256: loan.agreementSha256 } : null;
  }

  // Staff

  private fields(body: LoanProductBody): LoanProductFields {
    const scale = ASSET_SCALES[body.asset];
    const amount = (text: string, path: string) => {
      try {
        const v = parseMinor(text, scale);
        if (v <= 0n) throw new Error('zero');
        return v;
      } catch {
        throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'amount' }]);
      }
    };
    const minMinor = amount(body.minAmount, 'minAmount');
    const maxMinor = amount(body.maxAmount, 'maxAmount');
    if (maxMinor < minMinor)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'maxAmount', issue: 'below_minimum' }]);
    return {
      name: body.name,
      asset: body.asset,
      minMinor,
      maxMinor,
      terms: [...new Set(body.terms)].sort((a, b) => a - b),
      dailyPpm: ppmOf(body.dailyRate),
      interestFreeDays: body.interestFreeDays,
      lateDailyPpm: ppmOf(body.lateDailyRate),
      lateCapPpm: ppmOf(body.lateCapRate),
      enabled: body.enabled,
    };
  }

  async pool(
    asset: Asset,
    figures?: Map<string, { open: number; overdue: number; lent: bigint }>,
  ): Promise<LoanPool> {
    const f = (figures ?? (await poolFigures(this.db))).get(asset);
    const scale = ASSET_SCALES[asset];
    const balance = async (id: number) => (await this.ledger.account(id))?.balance ?? 0n;
    return {
      asset,
      available: toDecimal(await this.available(await this.poolAccount(asset)), scale),
      lent: toDecimal(f?.lent ?? 0n, scale),
      income: toDecimal(await balance(await this.incomeAccount(asset)), scale),
      unearned: toDecimal(await balance(await this.unearnedAccount(asset)), scale),
      openLoans: f?.open ?? 0,
      overdueLoans: f?.overdue ?? 0,
    };
  }

  async pools(): Promise<LoanPool[]> {
    const figures = await poolFigures(this.db);
    return Promise.all(LOAN_ASSETS.map((a) => this.pool(a, figures)));
  }

  private async adminRow(p: LoanProductRow): Promise<LoanProductAdmin> {
    return {
      product: this.wireProduct(p, await this.available(await this.poolAccount(p.asset))),
      pool: await this.pool(p.asset),
    };
  }

  async adminProducts(): Promise<LoanProductAdmin[]> {
    return Promise.all((await listProducts(this.db)).map((p) => this.adminRow(p)));
  }

  async createProduct(actor: string, body: LoanProductBody): Promise<LoanProductAdmin> {
    const fields = this.fields(body);
    const row = await this.db.transaction(async (tx) => {
      const p = await insertProduct(tx, fields);
      await this.audit.appendInTx(tx, [
        { actor, action: 'loan.product.created', subject: `loan-product:${p.id}`, data: body },
      ]);
      return p;
    });
    return this.adminRow(row);
  }

  /** A change applies to new applications only: every loan keeps the terms it was signed at. */
  async updateProduct(actor: string, body: LoanProductBody & { id: number }): Promise<LoanProductAdmin> {
    const before = await productById(this.db, body.id);
    if (!before) throw new ApiError(Code.NOT_FOUND);
    if (before.asset !== body.asset)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'asset', issue: 'fixed' }]);
    const fields = this.fields(body);
    const row = await this.db.transaction(async (tx) => {
      const p = await updateProduct(tx, body.id, fields);
      if (!p) throw new ApiError(Code.NOT_FOUND);
      await this.audit.appendInTx(tx, [
        {
          actor,
          action: 'loan.product.updated',
          subject: `loan-product:${p.id}`,
          data: {
            before: {
              ...before,
              minMinor: String(before.minMinor),
              maxMinor: String(before.maxMinor),
              dailyPpm: String(before.dailyPpm),
              lateDailyPpm: String(before.lateDailyPpm),
              lateCapPpm: String(before.lateCapPpm),
            },
            after: body,
          },
        },
      ]);
      return p;
    });
    return this.adminRow(row);
  }

  /** Staff fund an asset's lending pool from the house: a ledger transfer, audited by the ledger with its actor and reason. */
  async fundPool(
    actor: string,
    body: { asset: Asset; amount: string; reason: string },
    requestKey: string,
  ): Promise<LoanPool> {
    const amount = this.amountOf(body.asset, body.amount);
    await this.ledger.transfer({
      book: BOOK,
      kind: 'loan',
      idempotencyKey: requestKey,
      actor,
      reason: body.reason,
      reference: `loan-pool:${body.asset}`,
      postings: [
        { accountId: await this.ledger.systemAccount(BOOK, body.asset, 'house_pnl'), amount: -amount },
        { accountId: await this.poolAccount(body.asset), amount },
      ],
      attach: this.loanEntry.with({ op: 'fund' }),
    });
    return this.pool(body.asset);
  }

  async overdue(): Promise<OverdueLoan[]> {
    const rows = await overdueLoans(this.db);
    const paid = await principalPaidOf(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      loan: this.wireLoan(r, paid.get(r.id) ?? []),
      userId: r.userId,
      customer: r.customer,
      daysOverdue: r.dueDay === null ? 0 : Math.max(0, daysBetween(r.dueDay, this.today())),
    }));
  }

  /** The sub-ledger of one asset: each customer's `loan` account equals what their booked loans owe. */
  subLedger(asset: Asset): SubLedger {
    return {
      name: `loans.${asset.toLowerCase()}`,
      accountKind: LOAN,
      asset,
      expected: async () =>
        (await owedByCustomer(this.db, asset)).map((r) => ({
          book: BOOK,
          ownerId: r.userId,
          amount: r.owed,
        })),
      alertMessage: (count) =>
        `${count} customers' loan accounts (${asset}) differ from what their loans owe`,
    };
  }
}

export function wireRepayment(r: RepaymentRow): LoanRepayment {
  const scale = ASSET_SCALES[r.asset];
  const d = (v: bigint | null) => (v === null ? null : toDecimal(v, scale));
  return {
    id: r.id,
    method: r.method,
    amount: toDecimal(r.amount, scale),
    state: r.state,
    lateCost: d(r.late),
    interest: d(r.interest),
    principal: d(r.principal),
    txHash: r.txHash,
    address: r.address,
    proof: r.proofUpload,
    reason: r.reason,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/** The daily loans job: run key = the day the runner settles; every 15 minutes until it has run. */
export function loansDailyJob(loans: LoansService, runner: SettlementRunner): Job {
  return {
    name: 'loans.daily',
    everyMs: 15 * 60_000,
    runKey: () => runner.dueDay(),
    maxAttempts: 96,
    run: async ({ logger }) => {
      const unfunded = await loans.runDaily(runner);
      if (unfunded.length > 0) throw new Error(`loan servicing stopped: ${unfunded.join(', ')}`);
      logger.info('loan servicing done');
    },
  };
}

/** Every minute: receivables of new payouts booked, approved repayment proofs applied. */
export function loansMinuteJob(loans: LoansService): Job {
  return {
    name: 'loans.minute',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await loans.bookReceivables();
      await loans.applyProofs();
    },
  };
}
