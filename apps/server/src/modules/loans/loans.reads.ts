import {
  ASSET_SCALES,
  LOAN_WITHDRAWAL_DAYS,
  type LoanDetail,
  type LoanRecord,
  type LoanRepayment,
  type LoanState,
  formatMinor as toDecimal,
} from '@swx/contract';
import type { Book } from '../ledger/ledger.service.ts';
import { ppmText } from '../products/figures.ts';
import { addDays, type Owed, owedTotal, type PrincipalPaid } from './loans.figures.ts';
import { type RepaymentRow, repaymentsOf } from './loans.repayments.repository.ts';
import { type LoanRow, loanById, loansOf, principalPaidOf } from './loans.repository.ts';
import { accrued, type LoansContext, mine, today } from './loans.shared.ts';

/* What a customer reads of their loans, the signed agreements, and the loans' wire forms. */

export async function loans(
  ctx: LoansContext,
  book: Book,
  userId: number,
  state: LoanState | undefined,
): Promise<LoanRecord[]> {
  if (book !== 'live') return [];
  const rows = await loansOf(ctx.db, userId, state ?? null);
  const paid = await principalPaidOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => wireLoan(ctx, r, paid.get(r.id) ?? []));
}

export async function detail(ctx: LoansContext, book: Book, userId: number, id: number): Promise<LoanDetail> {
  const loan = await mine(ctx, book, userId, id);
  const [paid, repayments] = await Promise.all([
    principalPaidOf(ctx.db, [loan.id]).then((m) => m.get(loan.id) ?? []),
    repaymentsOf(ctx.db, loan.id),
  ]);
  const scale = ASSET_SCALES[loan.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  // The days listed and what is owed: one computation, as today's payoff's.
  const charged = accrued(ctx, loan, paid);
  return {
    ...wireLoan(ctx, loan, paid, charged),
    schedule: [
      {
        dueDate: loan.dueDay ?? addDays(today(ctx), loan.termDays),
        principal: d(loan.amount),
        interest: d(loan.totalInterest),
        total: d(loan.amount + loan.totalInterest),
      },
    ],
    accruals: charged.days.map((c) => ({ day: c.day, interest: d(c.interest), lateCost: d(c.late) })),
    repayments: repayments.map(wireRepayment),
  };
}

/** A loan's wire form; what it owes is `accrued`'s (nothing before the payout, nothing once closed). */
export function wireLoan(
  ctx: LoansContext,
  loan: LoanRow,
  paid: readonly PrincipalPaid[] = [],
  charged?: { owed: Owed },
): LoanRecord {
  const scale = ASSET_SCALES[loan.asset];
  const d = (v: bigint) => toDecimal(v, scale);
  const open = loan.state === 'repaying' || loan.state === 'expired';
  const owed = open ? (charged ?? accrued(ctx, loan, paid)).owed : { principal: 0n, interest: 0n, late: 0n };
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

/** The signed agreement of the owner's loan; anyone else's: nothing. */
export async function agreementForOwner(
  ctx: LoansContext,
  userId: number,
  id: number,
): Promise<Uint8Array | null> {
  const loan = await loanById(ctx.db, id);
  if (!loan || loan.userId !== userId) return null;
  return (await ctx.storage.get(loan.agreementKey))?.bytes ?? null;
}

/** The signed agreement for staff (the route checks the role and audits the view). */
export async function agreementForStaff(
  ctx: LoansContext,
  id: number,
): Promise<{ bytes: Uint8Array; sha256: string } | null> {
  const loan = await loanById(ctx.db, id);
  if (!loan) return null;
  const file = await ctx.storage.get(loan.agreementKey);
  return file ? { bytes: file.bytes, sha256: loan.agreementSha256 } : null;
}
