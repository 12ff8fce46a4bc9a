import {
  ASSET_SCALES,
  type Asset,
  Code,
  LANGUAGES,
  LOAN_ASSETS,
  LOAN_WITHDRAWAL_DAYS,
  parseMinor,
} from '@swx/contract';
import { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { FileStore } from '../../platform/storage.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { EntryAttachment, HoldAttachment } from '../ledger/ledger.types.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { OperatorService } from '../operator/operator.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import { utcDay } from '../products/figures.ts';
import { bigintText, type QuoteProduct, type Quotes } from '../products/quotes.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import {
  chargesThrough,
  type DayCharge,
  daysBetween,
  type Owed,
  type PrincipalPaid,
} from './loans.figures.ts';
import { type LoanRow, loanById, type NewLoan } from './loans.repository.ts';

/*
 * What the loans use cases share (applications, decisions, servicing, repayment, reads, staff):
 * the accounts, the quote's figures, the ledger attachments' data, the parts they work with and
 * the few steps more than one of them takes.
 */

/** A customer's own account of what they owe on their loans (principal + interest + late cost charged). */
export const LOAN = 'loan';
/** Per asset (live book), platform accounts that may not go negative: the pool, what is still to accrue, what loans earned. */
export const POOL = 'loan_pool_1';
export const UNEARNED = 'loan_unearned_1';
export const INCOME = 'loan_income_1';
export const BOOK: Book = 'live';

export const PAGE = 200;

/** The quote's figures: exactly what the application signs and the loan posts. */
export const quoteFigures = z.object({
  productId: z.int(),
  productName: z.string(),
  asset: z.enum(LOAN_ASSETS),
  amount: bigintText,
  termDays: z.int(),
  dailyPpm: bigintText,
  interestFreeDays: z.int(),
  lateDailyPpm: bigintText,
  lateCapPpm: bigintText,
  /** The language of the agreement the customer read with the quote, and signs. */
  language: z.optional(z.enum(LANGUAGES)),
});
export type QuoteFigures = z.output<typeof quoteFigures>;

/** The loan offer: ten minutes, time to read the sheet and the agreement and to draw a signature. */
export const LOAN_QUOTE: QuoteProduct<typeof quoteFigures> = {
  name: 'loan.v1',
  validSeconds: 600,
  figures: quoteFigures,
};

/** What the `loan` entries' attachment writes: nothing (pool funding), the booking, or a day's charge. */
export type LoanEntryData =
  | { op: 'fund' }
  | { op: 'book'; loanId: number }
  | { op: 'charge'; loanId: number; day: string; interest: string; late: string };

export type RepayData = {
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
export type ApplyData = Omit<NewLoan, BigFields> & Record<BigFields, string>;

/** A repayment by proof as its hold carries it. */
export type ProofData = {
  loanId: number;
  userId: number;
  amount: string;
  requestKey: string;
  txHash: string;
  address: string;
  proof: string;
};

/** The records the loans module writes with its ledger entries and holds (`loans.attachments.ts`). */
export type LoanAttachments = {
  /** `loan` entries: pool funding, a loan's booking, a day's charge. */
  readonly loanEntry: EntryAttachment<LoanEntryData, never>;
  /** `repayment` entries: the repayment row (from the balance) or the proof applied. */
  readonly repayEntry: EntryAttachment<RepayData, number>;
  /** The pool hold of an application: the loan row, the signature, the agreement audited. */
  readonly applyHold: HoldAttachment<ApplyData, number>;
  /** The external-clearing hold of a repayment by proof: the proof row and its upload. */
  readonly proofHold: HoldAttachment<ProofData, number>;
};

/** The parts every use case works with; `LoansService` builds it once. */
export type LoansContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly audit: AuditService;
  readonly notices: NoticesService;
  /** `status`: the legal name of the borrower's verified identity, which the agreement names. */
  readonly kyc: Pick<KycService, 'stateOf' | 'status'>;
  /** Who lends: the operator's identity, which the agreement names. */
  readonly operator: Pick<OperatorService, 'info'>;
  readonly uploads: Pick<UploadsService, 'takeInTx' | 'fileForOwner'>;
  readonly storage: FileStore;
  readonly params: Pick<ParamsService, 'get'>;
  /** The clock of the loans' days (tests move it). */
  readonly now: () => number;
  readonly logger: Logger | undefined;
  /** Reminders and overdue notices are also mailed to the customer's address, when they have one. */
  readonly mail: { mailer: Mailer; customers: Pick<CustomerDirectory, 'get'> } | null;
  /** The platform's own address on the EVM chain, where repayments by transfer go by default. */
  readonly platformAddress: string | null;
  /** The signed quotes of product `loan.v1` (the quote keys). */
  readonly quotes: Quotes<typeof quoteFigures>;
  readonly attachments: LoanAttachments;
};

export function today(ctx: LoansContext): string {
  return utcDay(ctx.now());
}

/** The moment now on the loans' clock, as every loans timestamp is written (never the database's `now()`). */
export function nowIso(ctx: Pick<LoansContext, 'now'>): string {
  return new Date(ctx.now()).toISOString();
}

// Accounts

export function poolAccount(ctx: LoansContext, asset: Asset): Promise<number> {
  return ctx.ledger.productAccount(BOOK, asset, POOL);
}

export function unearnedAccount(ctx: LoansContext, asset: Asset): Promise<number> {
  return ctx.ledger.productAccount(BOOK, asset, UNEARNED);
}

export function incomeAccount(ctx: LoansContext, asset: Asset): Promise<number> {
  return ctx.ledger.productAccount(BOOK, asset, INCOME);
}

export async function available(ctx: LoansContext, accountId: number): Promise<bigint> {
  const a = await ctx.ledger.account(accountId);
  return a ? a.balance - a.held : 0n;
}

/** An amount a customer typed, in minor units: not a positive amount of the asset is 10013. */
export function amountOf(asset: Asset, text: string, extra: Record<string, string> = {}): bigint {
  try {
    const v = parseMinor(text, ASSET_SCALES[asset]);
    if (v <= 0n) throw new Error('zero');
    return v;
  } catch {
    throw new ApiError(Code.WRONG_INVESTMENT_AMOUNT, { asset, ...extra });
  }
}

// Loans

/** The customer's own loan (live book only); anyone else's: 10028. */
export async function mine(ctx: LoansContext, book: Book, userId: number, id: number): Promise<LoanRow> {
  const row = await loanById(ctx.db, id);
  if (!row || row.userId !== userId || book !== 'live') throw new ApiError(Code.NOT_FOUND);
  return row;
}

/** A loan being repaid (or overdue); any other state is 10020. */
export function requireOpen(loan: LoanRow): void {
  if (loan.state !== 'repaying' && loan.state !== 'expired') throw new ApiError(Code.WRONG_COLLECTION_STATUS);
}

/** Whether the loan may still be withdrawn from (repaid in full, within the withdrawal days). */
export function withdrawable(ctx: LoansContext, loan: LoanRow): boolean {
  return (
    loan.disbursedDay !== null &&
    loan.state === 'repaying' &&
    daysBetween(loan.disbursedDay, today(ctx)) <= LOAN_WITHDRAWAL_DAYS
  );
}

/**
 * What a loan charged day by day and what it owes now, from one computation: the list a customer
 * reads, what is owed, today's payoff and the repayment all come from here, so they agree at every
 * moment of the day. The days run from the payout through today (posted or not: today's charge is
 * on the principal owed when today started, so it is known), or through the day the loan closed;
 * nothing before the payout.
 */
export function accrued(
  ctx: LoansContext,
  loan: LoanRow,
  paid: readonly PrincipalPaid[],
): { days: DayCharge[]; owed: Owed } {
  if (loan.disbursedDay === null) return { days: [], owed: { principal: 0n, interest: 0n, late: 0n } };
  const days = chargesThrough(loan, loan.disbursedDay, paid, loan.closedDay ?? today(ctx));
  return {
    days,
    owed: {
      principal: loan.amount - loan.principalPaid,
      interest: days.reduce((sum, d) => sum + d.interest, 0n) - loan.interestPaid,
      late: days.reduce((sum, d) => sum + d.late, 0n) - loan.latePaid,
    },
  };
}

/** What a loan owes today: principal, and the charges of every day through today less what was repaid. */
export function owedToday(ctx: LoansContext, loan: LoanRow, paid: readonly PrincipalPaid[]): Owed {
  return accrued(ctx, loan, paid).owed;
}
