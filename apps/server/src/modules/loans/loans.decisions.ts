import type { Queryable } from '../../platform/db.ts';
import type { Posting } from '../ledger/ledger.types.ts';
import { addDays } from './loans.figures.ts';
import {
  decideProof,
  pendingProofs,
  type RepaymentRow,
  repaymentById,
} from './loans.repayments.repository.ts';
import {
  type LoanRow,
  loanById,
  markDisbursed,
  markRejected,
  pendingLoans,
  unbookedLoans,
} from './loans.repository.ts';
import { BOOK, LOAN, type LoansContext, nowIso, PAGE, today, unearnedAccount } from './loans.shared.ts';

/*
 * What staff decide (loans.review.ts calls these, the records in the decision's transaction), and
 * the booking of an approved loan's debt.
 */

// Applications

export function pendingApplications(
  ctx: LoansContext,
  after: number | null,
  limit: number,
): Promise<LoanRow[]> {
  return pendingLoans(ctx.db, after, limit);
}

export async function recordApproval(
  ctx: LoansContext,
  tx: Queryable,
  id: number,
  entryId: number | null,
): Promise<LoanRow> {
  const loan = await loanById(tx, id, true);
  if (!loan) throw new Error(`loan ${id} is gone`);
  const day = today(ctx);
  await markDisbursed(tx, id, { day, dueDay: addDays(day, loan.termDays), entryId, at: nowIso(ctx) });
  return loan;
}

export function recordRejection(ctx: LoansContext, tx: Queryable, id: number, reason: string): Promise<void> {
  return markRejected(tx, id, reason, nowIso(ctx));
}

/**
 * After the payout, the customer's debt on the ledger: their `loan` account takes the amount,
 * the unearned account takes the interest and late cost the agreement can charge at most, both
 * against `loans_receivable`. One entry per loan (key `loan-book:<id>`); a job retries it.
 */
export async function book(ctx: LoansContext, loan: LoanRow): Promise<void> {
  if (loan.bookedEntryId !== null || loan.disbursedDay === null) return;
  const unearned = loan.totalInterest + loan.lateCap;
  const postings: Posting[] = [
    { accountId: await ctx.ledger.accountId(BOOK, loan.userId, loan.asset, LOAN), amount: loan.amount },
    {
      accountId: await ctx.ledger.systemAccount(BOOK, loan.asset, 'loans_receivable'),
      amount: -(loan.amount + unearned),
    },
  ];
  if (unearned > 0n) postings.push({ accountId: await unearnedAccount(ctx, loan.asset), amount: unearned });
  await ctx.ledger.transfer({
    book: BOOK,
    kind: 'loan',
    idempotencyKey: `loan-book:${loan.id}`,
    actor: 'system',
    reference: `loan:${loan.id}`,
    postings,
    attach: ctx.attachments.loanEntry.with({ op: 'book', loanId: loan.id }),
  });
}

export async function bookReceivables(ctx: LoansContext): Promise<number> {
  let count = 0;
  for (;;) {
    const rows = await unbookedLoans(ctx.db, PAGE);
    for (const row of rows) await book(ctx, row);
    count += rows.length;
    if (rows.length < PAGE) return count;
  }
}

// Repayment proofs

export function listPendingProofs(
  ctx: LoansContext,
  after: number | null,
  limit: number,
): Promise<RepaymentRow[]> {
  return pendingProofs(ctx.db, after, limit);
}

export function repaymentRow(ctx: LoansContext, id: number): Promise<RepaymentRow | null> {
  return repaymentById(ctx.db, id);
}

export function recordProofDecision(
  ctx: LoansContext,
  tx: Queryable,
  id: number,
  decision: 'approved' | 'rejected',
  reason: string | null,
) {
  return decideProof(tx, id, decision, reason, nowIso(ctx));
}
