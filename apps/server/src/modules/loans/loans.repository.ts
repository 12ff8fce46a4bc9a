import type { Asset, LoanState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { LoanTerms, PrincipalPaid } from './loans.figures.ts';

/**
 * SQL of the loans module's loans and their daily charges; the products are in
 * `loans.products.repository.ts`, the repayments in `loans.repayments.repository.ts`.
 */

export type LoanRow = LoanTerms & {
  id: number;
  userId: number;
  customer: string;
  productId: number;
  productName: string;
  asset: Asset;
  totalInterest: bigint;
  lateCap: bigint;
  apr: string;
  state: LoanState;
  requestKey: string;
  poolHoldId: number | null;
  signatureUpload: string;
  agreement: string[];
  agreementKey: string;
  agreementSha256: string;
  disbursedDay: string | null;
  dueDay: string | null;
  bookedEntryId: number | null;
  interestCharged: bigint;
  lateCharged: bigint;
  principalPaid: bigint;
  interestPaid: bigint;
  latePaid: bigint;
  chargedThrough: string | null;
  closedDay: string | null;
  closedAt: string | null;
  wasOverdue: boolean;
  reason: string | null;
  createdAt: string;
};

type RawLoan = {
  id: string;
  user_id: string;
  customer: string;
  product_id: string;
  product_name: string;
  asset: Asset;
  amount_minor: string;
  term_days: number;
  daily_ppm: string;
  interest_free_days: number;
  late_daily_ppm: string;
  late_cap_ppm: string;
  total_interest: string;
  late_cap: string;
  apr: string;
  state: LoanState;
  request_key: string;
  pool_hold_id: string | null;
  signature_upload: string;
  agreement: string[];
  agreement_key: string;
  agreement_sha256: string;
  disbursed_day: string | null;
  due_day: string | null;
  booked_entry_id: string | null;
  interest_charged: string;
  late_charged: string;
  principal_paid: string;
  interest_paid: string;
  late_paid: string;
  charged_through: string | null;
  closed_day: string | null;
  closed_at: string | null;
  was_overdue: boolean;
  reason: string | null;
  created_at: string;
};

const LOAN_COLUMNS = `l.id, l.user_id, coalesce(u.user_name, '') AS customer, l.product_id, l.product_name, l.asset,
  l.amount_minor, l.term_days, l.daily_ppm, l.interest_free_days, l.late_daily_ppm, l.late_cap_ppm, l.total_interest,
  l.late_cap, l.apr, l.state, l.request_key, l.pool_hold_id, l.signature_upload, l.agreement, l.agreement_key,
  l.agreement_sha256, l.disbursed_day::text AS disbursed_day, l.due_day::text AS due_day, l.booked_entry_id,
  l.interest_charged, l.late_charged, l.principal_paid, l.interest_paid, l.late_paid,
  l.charged_through::text AS charged_through, l.closed_day::text AS closed_day, l.closed_at::text AS closed_at,
  l.was_overdue, l.reason, l.created_at::text AS created_at`;
const LOAN_FROM = 'loans l JOIN users u ON u.id = l.user_id';

const num = (v: string | null) => (v === null ? null : Number(v));

const toLoan = (r: RawLoan): LoanRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  customer: r.customer,
  productId: Number(r.product_id),
  productName: r.product_name,
  asset: r.asset,
  amount: BigInt(r.amount_minor),
  termDays: r.term_days,
  dailyPpm: BigInt(r.daily_ppm),
  interestFreeDays: r.interest_free_days,
  lateDailyPpm: BigInt(r.late_daily_ppm),
  lateCapPpm: BigInt(r.late_cap_ppm),
  totalInterest: BigInt(r.total_interest),
  lateCap: BigInt(r.late_cap),
  apr: r.apr,
  state: r.state,
  requestKey: r.request_key,
  poolHoldId: num(r.pool_hold_id),
  signatureUpload: r.signature_upload,
  agreement: r.agreement,
  agreementKey: r.agreement_key,
  agreementSha256: r.agreement_sha256,
  disbursedDay: r.disbursed_day,
  dueDay: r.due_day,
  bookedEntryId: num(r.booked_entry_id),
  interestCharged: BigInt(r.interest_charged),
  lateCharged: BigInt(r.late_charged),
  principalPaid: BigInt(r.principal_paid),
  interestPaid: BigInt(r.interest_paid),
  latePaid: BigInt(r.late_paid),
  chargedThrough: r.charged_through,
  closedDay: r.closed_day,
  closedAt: r.closed_at,
  wasOverdue: r.was_overdue,
  reason: r.reason,
  createdAt: r.created_at,
});

export type NewLoan = LoanTerms & {
  userId: number;
  productId: number;
  productName: string;
  asset: Asset;
  totalInterest: bigint;
  lateCap: bigint;
  apr: string;
  requestKey: string;
  signatureUpload: string;
  agreement: string[];
  agreementKey: string;
  agreementSha256: string;
};

/** Writes a pending application with its pool reservation; the unique index refuses a second open loan. */
export async function insertLoan(tx: Queryable, l: NewLoan, poolHoldId: number, at: string): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loans (user_id, product_id, product_name, asset, amount_minor, term_days, daily_ppm,
       interest_free_days, late_daily_ppm, late_cap_ppm, total_interest, late_cap, apr, state, request_key,
       pool_hold_id, signature_upload, agreement, agreement_key, agreement_sha256, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'pending', $14, $15, $16, $17::jsonb, $18, $19,
       $20, $20)
     RETURNING id`,
    [
      l.userId,
      l.productId,
      l.productName,
      l.asset,
      l.amount.toString(),
      l.termDays,
      l.dailyPpm.toString(),
      l.interestFreeDays,
      l.lateDailyPpm.toString(),
      l.lateCapPpm.toString(),
      l.totalInterest.toString(),
      l.lateCap.toString(),
      l.apr,
      l.requestKey,
      poolHoldId,
      l.signatureUpload,
      JSON.stringify(l.agreement),
      l.agreementKey,
      l.agreementSha256,
      at,
    ],
  );
  if (!rows[0]) throw new Error('no loan inserted');
  return Number(rows[0].id);
}

export async function loanById(db: Queryable, id: number, lock = false): Promise<LoanRow | null> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1${lock ? ' FOR UPDATE OF l' : ''}`,
    [id],
  );
  return rows[0] ? toLoan(rows[0]) : null;
}

export async function loanByRequestKey(db: Queryable, key: string): Promise<LoanRow | null> {
  const rows = await db.query<RawLoan>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.request_key = $1`, [
    key,
  ]);
  return rows[0] ? toLoan(rows[0]) : null;
}

export async function loansOf(db: Queryable, userId: number, state: LoanState | null): Promise<LoanRow[]> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.user_id = $1 AND ($2::text IS NULL OR l.state = $2)
     ORDER BY l.id DESC LIMIT 200`,
    [userId, state],
  );
  return rows.map(toLoan);
}

export async function pendingLoans(db: Queryable, after: number | null, limit: number): Promise<LoanRow[]> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.state = 'pending' AND l.id > $1 ORDER BY l.id LIMIT $2`,
    [after ?? 0, limit],
  );
  return rows.map(toLoan);
}

/** The customer's loan history for the credit score and the limit. */
export async function creditFactsOf(
  db: Queryable,
  userId: number,
): Promise<{ repaidOnTime: number; everOverdue: number; openLoanId: number | null }> {
  const rows = await db.query<{ on_time: string; overdue: string; open_id: string | null }>(
    `SELECT count(*) FILTER (WHERE state IN ('repaid', 'withdrawn') AND NOT was_overdue) AS on_time,
       count(*) FILTER (WHERE was_overdue) AS overdue,
       max(id) FILTER (WHERE state IN ('pending', 'repaying', 'expired')) AS open_id
     FROM loans WHERE user_id = $1`,
    [userId],
  );
  const r = rows[0];
  return {
    repaidOnTime: Number(r?.on_time ?? 0),
    everOverdue: Number(r?.overdue ?? 0),
    openLoanId: num(r?.open_id ?? null),
  };
}

export async function markRejected(tx: Queryable, id: number, reason: string, at: string): Promise<void> {
  await tx.query(
    `UPDATE loans SET state = 'rejected', reason = $2, closed_at = $3, updated_at = $3
     WHERE id = $1 AND state = 'pending'`,
    [id, reason, at],
  );
}

export async function markDisbursed(
  tx: Queryable,
  id: number,
  d: { day: string; dueDay: string; entryId: number | null; at: string },
): Promise<void> {
  const rows = await tx.query(
    `UPDATE loans SET state = 'repaying', disbursed_day = $2, due_day = $3, disburse_entry_id = $4,
       charged_through = $2, updated_at = $5
     WHERE id = $1 AND state = 'pending' RETURNING id`,
    [id, d.day, d.dueDay, d.entryId, d.at],
  );
  if (rows.length === 0) throw new Error(`loan ${id} is not pending`);
}

export async function markBooked(tx: Queryable, id: number, entryId: number, at: string): Promise<void> {
  await tx.query('UPDATE loans SET booked_entry_id = $2, updated_at = $3 WHERE id = $1', [id, entryId, at]);
}

/** Disbursed loans whose receivable is not booked yet. */
export async function unbookedLoans(db: Queryable, limit: number): Promise<LoanRow[]> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM}
     WHERE l.disbursed_day IS NOT NULL AND l.booked_entry_id IS NULL ORDER BY l.id LIMIT $1`,
    [limit],
  );
  return rows.map(toLoan);
}

/** One day's charge, in its ledger transaction. */
export async function insertCharge(
  tx: Queryable,
  c: { loanId: number; day: string; interest: bigint; late: bigint; entryId: number; at: string },
): Promise<void> {
  const rows = await tx.query(
    `INSERT INTO loan_charges (loan_id, day, interest, late, entry_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING loan_id`,
    [c.loanId, c.day, c.interest.toString(), c.late.toString(), c.entryId],
  );
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE loans SET interest_charged = interest_charged + $2, late_charged = late_charged + $3,
       charged_through = greatest(charged_through, $4::date), updated_at = $5 WHERE id = $1`,
    [c.loanId, c.interest.toString(), c.late.toString(), c.day, c.at],
  );
}

export async function chargesOf(
  db: Queryable,
  loanId: number,
): Promise<{ day: string; interest: bigint; late: bigint }[]> {
  const rows = await db.query<{ day: string; interest: string; late: string }>(
    'SELECT day::text AS day, interest, late FROM loan_charges WHERE loan_id = $1 ORDER BY day',
    [loanId],
  );
  return rows.map((r) => ({ day: r.day, interest: BigInt(r.interest), late: BigInt(r.late) }));
}

/** The servicing holdings of a day: loans paid out before it and not closed before it, by id. */
export async function servicedLoans(
  db: Queryable,
  asset: Asset,
  afterId: number,
  limit: number,
  day: string,
): Promise<(LoanRow & { paidPrincipal: PrincipalPaid[] })[]> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM}
     WHERE l.asset = $1 AND l.disbursed_day IS NOT NULL AND l.disbursed_day < $4::date
       AND (l.closed_day IS NULL OR l.closed_day >= $4::date) AND l.id > $2
     ORDER BY l.id LIMIT $3`,
    [asset, afterId, limit, day],
  );
  const loans = rows.map(toLoan);
  const paid = await principalPaidOf(
    db,
    loans.map((l) => l.id),
  );
  return loans.map((l) => ({ ...l, paidPrincipal: paid.get(l.id) ?? [] }));
}

/** Each loan's principal repayments with their days (the interest of later days depends on them). */
export async function principalPaidOf(
  db: Queryable,
  loanIds: readonly number[],
): Promise<Map<number, PrincipalPaid[]>> {
  const out = new Map<number, PrincipalPaid[]>();
  if (loanIds.length === 0) return out;
  const rows = await db.query<{ loan_id: string; day: string; principal: string }>(
    `SELECT loan_id, day::text AS day, principal FROM loan_repayments
     WHERE loan_id = ANY($1::bigint[]) AND principal > 0 ORDER BY loan_id, day, id`,
    [loanIds],
  );
  for (const r of rows) {
    const list = out.get(Number(r.loan_id)) ?? [];
    list.push({ day: r.day, principal: BigInt(r.principal) });
    out.set(Number(r.loan_id), list);
  }
  return out;
}

/** Repaying loans whose due date has passed with money owed: now expired (overdue), for ever marked. */
export async function markOverdue(db: Queryable, today: string, at: string): Promise<LoanRow[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE loans SET state = 'expired', was_overdue = true, updated_at = $2
     WHERE state = 'repaying' AND due_day < $1::date RETURNING id`,
    [today, at],
  );
  const out: LoanRow[] = [];
  for (const r of rows) {
    const loan = await loanById(db, Number(r.id));
    if (loan) out.push(loan);
  }
  return out;
}

/** Loans due in `days` days not yet reminded for it: marked reminded, answered once. */
export async function takeReminders(
  db: Queryable,
  dueDay: string,
  days: 1 | 3,
  at: string,
): Promise<LoanRow[]> {
  const column = days === 3 ? 'reminded_3' : 'reminded_1';
  const rows = await db.query<{ id: string }>(
    `UPDATE loans SET ${column} = true, updated_at = $2
     WHERE state = 'repaying' AND due_day = $1::date AND NOT ${column} RETURNING id`,
    [dueDay, at],
  );
  const out: LoanRow[] = [];
  for (const r of rows) {
    const loan = await loanById(db, Number(r.id));
    if (loan) out.push(loan);
  }
  return out;
}

export async function overdueLoans(db: Queryable): Promise<LoanRow[]> {
  const rows = await db.query<RawLoan>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.state = 'expired' ORDER BY l.due_day, l.id LIMIT 500`,
  );
  return rows.map(toLoan);
}

/** Per asset: open and overdue loans, principal lent out. */
export async function poolFigures(
  db: Queryable,
): Promise<Map<string, { open: number; overdue: number; lent: bigint }>> {
  const rows = await db.query<{ asset: string; open: string; overdue: string; lent: string | null }>(
    `SELECT asset, count(*) FILTER (WHERE state IN ('repaying', 'expired')) AS open,
       count(*) FILTER (WHERE state = 'expired') AS overdue,
       sum(amount_minor - principal_paid) FILTER (WHERE state IN ('repaying', 'expired')) AS lent
     FROM loans GROUP BY asset`,
  );
  return new Map(
    rows.map((r) => [
      r.asset,
      { open: Number(r.open), overdue: Number(r.overdue), lent: BigInt(r.lent ?? '0') },
    ]),
  );
}

/** Per customer: what their loans owe (the sub-ledger of their `loan` account), booked loans only. */
export async function owedByCustomer(
  db: Queryable,
  asset: Asset,
): Promise<{ userId: number; owed: bigint }[]> {
  const rows = await db.query<{ user_id: string; owed: string }>(
    `SELECT user_id, sum(amount_minor - principal_paid + interest_charged - interest_paid + late_charged - late_paid) AS owed
     FROM loans WHERE asset = $1 AND booked_entry_id IS NOT NULL GROUP BY user_id`,
    [asset],
  );
  return rows.map((r) => ({ userId: Number(r.user_id), owed: BigInt(r.owed) }));
}
