import type { Asset, LoanState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of the loans' repayments: from the balance, or by a transfer with a proof that staff decide. */

const num = (v: string | null) => (v === null ? null : Number(v));

export type RepaymentRow = {
  id: number;
  loanId: number;
  userId: number;
  customer: string;
  asset: Asset;
  method: 'balance' | 'proof';
  amount: bigint;
  state: 'pending' | 'approved' | 'rejected';
  late: bigint | null;
  interest: bigint | null;
  principal: bigint | null;
  day: string | null;
  requestKey: string;
  txHash: string | null;
  address: string | null;
  proofUpload: string | null;
  holdId: number | null;
  appliedEntryId: number | null;
  reason: string | null;
  createdAt: string;
};

type RawRepayment = {
  id: string;
  loan_id: string;
  user_id: string;
  customer: string;
  asset: Asset;
  method: 'balance' | 'proof';
  amount_minor: string;
  state: 'pending' | 'approved' | 'rejected';
  late: string | null;
  interest: string | null;
  principal: string | null;
  day: string | null;
  request_key: string;
  tx_hash: string | null;
  address: string | null;
  proof_upload: string | null;
  hold_id: string | null;
  applied_entry_id: string | null;
  reason: string | null;
  created_at: string;
};

const REPAYMENT_COLUMNS = `r.id, r.loan_id, r.user_id, coalesce(u.user_name, '') AS customer, l.asset, r.method,
  r.amount_minor, r.state, r.late, r.interest, r.principal, r.day::text AS day, r.request_key, r.tx_hash, r.address,
  r.proof_upload, r.hold_id, r.applied_entry_id, r.reason, r.created_at::text AS created_at`;
const REPAYMENT_FROM = 'loan_repayments r JOIN loans l ON l.id = r.loan_id JOIN users u ON u.id = r.user_id';
const big = (v: string | null) => (v === null ? null : BigInt(v));

const toRepayment = (r: RawRepayment): RepaymentRow => ({
  id: Number(r.id),
  loanId: Number(r.loan_id),
  userId: Number(r.user_id),
  customer: r.customer,
  asset: r.asset,
  method: r.method,
  amount: BigInt(r.amount_minor),
  state: r.state,
  late: big(r.late),
  interest: big(r.interest),
  principal: big(r.principal),
  day: r.day,
  requestKey: r.request_key,
  txHash: r.tx_hash,
  address: r.address,
  proofUpload: r.proof_upload,
  holdId: num(r.hold_id),
  appliedEntryId: num(r.applied_entry_id),
  reason: r.reason,
  createdAt: r.created_at,
});

export type Allocation = { late: bigint; interest: bigint; principal: bigint };

/** A repayment from the balance: its row, and the loan's totals (closing it when nothing is owed). */
export async function insertBalanceRepayment(
  tx: Queryable,
  r: {
    loanId: number;
    userId: number;
    amount: bigint;
    day: string;
    requestKey: string;
    entryId: number;
    at: string;
  },
  a: Allocation,
): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loan_repayments (loan_id, user_id, method, amount_minor, state, late, interest, principal, day,
       request_key, entry_id, created_at, decided_at)
     VALUES ($1, $2, 'balance', $3, 'approved', $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id`,
    [
      r.loanId,
      r.userId,
      r.amount.toString(),
      a.late.toString(),
      a.interest.toString(),
      a.principal.toString(),
      r.day,
      r.requestKey,
      r.entryId,
      r.at,
    ],
  );
  if (!rows[0]) throw new Error('no repayment inserted');
  return Number(rows[0].id);
}

/** An approved proof's money applied to its loan (after it reached the wallet). */
export async function markProofApplied(
  tx: Queryable,
  id: number,
  a: Allocation & { day: string; entryId: number },
): Promise<void> {
  await tx.query(
    `UPDATE loan_repayments SET late = $2, interest = $3, principal = $4, day = $5, applied_entry_id = $6
     WHERE id = $1 AND applied_entry_id IS NULL`,
    [id, a.late.toString(), a.interest.toString(), a.principal.toString(), a.day, a.entryId],
  );
}

/** What a loan has had repaid, and its state, locked for a repayment's transaction. */
export async function lockRepaid(
  tx: Queryable,
  id: number,
): Promise<{ state: LoanState; paid: string } | null> {
  const rows = await tx.query<{
    state: LoanState;
    principal_paid: string;
    interest_paid: string;
    late_paid: string;
  }>('SELECT state, principal_paid, interest_paid, late_paid FROM loans WHERE id = $1 FOR UPDATE', [id]);
  const r = rows[0];
  return r ? { state: r.state, paid: `${r.principal_paid}:${r.interest_paid}:${r.late_paid}` } : null;
}

/** A repayment's effect on the loan; closes it (repaid or withdrawn) when nothing is owed any more. */
export async function applyToLoan(
  tx: Queryable,
  loanId: number,
  a: Allocation & { day: string; close: 'repaid' | 'withdrawn' | null; at: string },
): Promise<void> {
  await tx.query(
    `UPDATE loans SET late_paid = late_paid + $2, interest_paid = interest_paid + $3,
       principal_paid = principal_paid + $4,
       state = coalesce($5, state), closed_day = CASE WHEN $5::text IS NULL THEN closed_day ELSE $6::date END,
       closed_at = CASE WHEN $5::text IS NULL THEN closed_at ELSE $7::timestamptz END, updated_at = $7
     WHERE id = $1`,
    [loanId, a.late.toString(), a.interest.toString(), a.principal.toString(), a.close, a.day, a.at],
  );
}

export async function insertProofRepayment(
  tx: Queryable,
  r: {
    loanId: number;
    userId: number;
    amount: bigint;
    requestKey: string;
    txHash: string;
    address: string;
    proofUpload: string;
    holdId: number;
    at: string;
  },
): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loan_repayments (loan_id, user_id, method, amount_minor, state, request_key, tx_hash, address,
       proof_upload, hold_id, created_at)
     VALUES ($1, $2, 'proof', $3, 'pending', $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      r.loanId,
      r.userId,
      r.amount.toString(),
      r.requestKey,
      r.txHash,
      r.address,
      r.proofUpload,
      r.holdId,
      r.at,
    ],
  );
  if (!rows[0]) throw new Error('no repayment proof inserted');
  return Number(rows[0].id);
}

export async function decideProof(
  tx: Queryable,
  id: number,
  decision: 'approved' | 'rejected',
  reason: string | null,
  at: string,
): Promise<void> {
  await tx.query(
    `UPDATE loan_repayments SET state = $2, reason = $3, decided_at = $4 WHERE id = $1 AND state = 'pending'`,
    [id, decision, reason, at],
  );
}

export async function repaymentById(db: Queryable, id: number): Promise<RepaymentRow | null> {
  const rows = await db.query<RawRepayment>(
    `SELECT ${REPAYMENT_COLUMNS} FROM ${REPAYMENT_FROM} WHERE r.id = $1`,
    [id],
  );
  return rows[0] ? toRepayment(rows[0]) : null;
}

export async function repaymentByRequestKey(db: Queryable, key: string): Promise<RepaymentRow | null> {
  const rows = await db.query<RawRepayment>(
    `SELECT ${REPAYMENT_COLUMNS} FROM ${REPAYMENT_FROM} WHERE r.request_key = $1`,
    [key],
  );
  return rows[0] ? toRepayment(rows[0]) : null;
}

export async function repaymentsOf(db: Queryable, loanId: number): Promise<RepaymentRow[]> {
  const rows = await db.query<RawRepayment>(
    `SELECT ${REPAYMENT_COLUMNS} FROM ${REPAYMENT_FROM} WHERE r.loan_id = $1 ORDER BY r.id`,
    [loanId],
  );
  return rows.map(toRepayment);
}

export async function pendingProofs(
  db: Queryable,
  after: number | null,
  limit: number,
): Promise<RepaymentRow[]> {
  const rows = await db.query<RawRepayment>(
    `SELECT ${REPAYMENT_COLUMNS} FROM ${REPAYMENT_FROM}
     WHERE r.method = 'proof' AND r.state = 'pending' AND r.id > $1 ORDER BY r.id LIMIT $2`,
    [after ?? 0, limit],
  );
  return rows.map(toRepayment);
}

export async function unappliedProofs(db: Queryable, limit: number): Promise<RepaymentRow[]> {
  const rows = await db.query<RawRepayment>(
    `SELECT ${REPAYMENT_COLUMNS} FROM ${REPAYMENT_FROM}
     WHERE r.method = 'proof' AND r.state = 'approved' AND r.applied_entry_id IS NULL ORDER BY r.id LIMIT $1`,
    [limit],
  );
  return rows.map(toRepayment);
}
