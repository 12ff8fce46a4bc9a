import type { Asset, LoanState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { LoanTerms, PrincipalPaid } from './loans.figures.ts';

/** SQL of the loans module: products, loans, their daily charges and repayments. */

export type LoanProductRow = {
  id: number;
  name: string;
  asset: Asset;
  minMinor: bigint;
  maxMinor: bigint;
  terms: number[];
  dailyPpm: bigint;
  interestFreeDays: number;
  lateDailyPpm: bigint;
  lateCapPpm: bigint;
  enabled: boolean;
};
export type LoanProductFields = Omit<LoanProductRow, 'id'>;

type RawProduct = {
  id: string;
  name: string;
  asset: Asset;
  min_minor: string;
  max_minor: string;
  terms: number[];
  daily_ppm: string;
  interest_free_days: number;
  late_daily_ppm: string;
  late_cap_ppm: string;
  enabled: boolean;
};

const PRODUCT_COLUMNS =
  'id, name, asset, min_minor, max_minor, terms, daily_ppm, interest_free_days, late_daily_ppm, late_cap_ppm, enabled';

const toProduct = (r: RawProduct): LoanProductRow => ({
  id: Number(r.id),
  name: r.name,
  asset: r.asset,
  minMinor: BigInt(r.min_minor),
  maxMinor: BigInt(r.max_minor),
  terms: r.terms.map(Number),
  dailyPpm: BigInt(r.daily_ppm),
  interestFreeDays: r.interest_free_days,
  lateDailyPpm: BigInt(r.late_daily_ppm),
  lateCapPpm: BigInt(r.late_cap_ppm),
  enabled: r.enabled,
});

const productValues = (p: LoanProductFields) => [
  p.name,
  p.asset,
  p.minMinor.toString(),
  p.maxMinor.toString(),
  p.terms,
  p.dailyPpm.toString(),
  p.interestFreeDays,
  p.lateDailyPpm.toString(),
  p.lateCapPpm.toString(),
  p.enabled,
];

export async function insertProduct(db: Queryable, p: LoanProductFields): Promise<LoanProductRow> {
  const rows = await db.query<RawProduct>(
    `INSERT INTO loan_products (name, asset, min_minor, max_minor, terms, daily_ppm, interest_free_days,
       late_daily_ppm, late_cap_ppm, enabled)
     VALUES ($1, $2, $3, $4, $5::int[], $6, $7, $8, $9, $10) RETURNING ${PRODUCT_COLUMNS}`,
    productValues(p),
  );
  if (!rows[0]) throw new Error('no loan product inserted');
  return toProduct(rows[0]);
}

export async function updateProduct(
  db: Queryable,
  id: number,
  p: LoanProductFields,
): Promise<LoanProductRow | null> {
  const rows = await db.query<RawProduct>(
    `UPDATE loan_products SET name = $1, asset = $2, min_minor = $3, max_minor = $4, terms = $5::int[],
       daily_ppm = $6, interest_free_days = $7, late_daily_ppm = $8, late_cap_ppm = $9, enabled = $10,
       updated_at = now()
     WHERE id = $11 RETURNING ${PRODUCT_COLUMNS}`,
    [...productValues(p), id],
  );
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function productById(db: Queryable, id: number): Promise<LoanProductRow | null> {
  const rows = await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM loan_products WHERE id = $1`, [id]);
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function listProducts(db: Queryable): Promise<LoanProductRow[]> {
  return (await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM loan_products ORDER BY id`)).map(
    toProduct,
  );
}

// Loans

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
export async function insertLoan(tx: Queryable, l: NewLoan, poolHoldId: number): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loans (user_id, product_id, product_name, asset, amount_minor, term_days, daily_ppm,
       interest_free_days, late_daily_ppm, late_cap_ppm, total_interest, late_cap, apr, state, request_key,
       pool_hold_id, signature_upload, agreement, agreement_key, agreement_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'pending', $14, $15, $16, $17::jsonb, $18, $19)
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

export async function markRejected(tx: Queryable, id: number, reason: string): Promise<void> {
  await tx.query(
    `UPDATE loans SET state = 'rejected', reason = $2, closed_at = now(), updated_at = now()
     WHERE id = $1 AND state = 'pending'`,
    [id, reason],
  );
}

export async function markDisbursed(
  tx: Queryable,
  id: number,
  d: { day: string; dueDay: string; entryId: number | null },
): Promise<void> {
  const rows = await tx.query(
    `UPDATE loans SET state = 'repaying', disbursed_day = $2, due_day = $3, disburse_entry_id = $4,
       charged_through = $2, updated_at = now()
     WHERE id = $1 AND state = 'pending' RETURNING id`,
    [id, d.day, d.dueDay, d.entryId],
  );
  if (rows.length === 0) throw new Error(`loan ${id} is not pending`);
}

export async function markBooked(tx: Queryable, id: number, entryId: number): Promise<void> {
  await tx.query('UPDATE loans SET booked_entry_id = $2, updated_at = now() WHERE id = $1', [id, entryId]);
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
  c: { loanId: number; day: string; interest: bigint; late: bigint; entryId: number },
): Promise<void> {
  const rows = await tx.query(
    `INSERT INTO loan_charges (loan_id, day, interest, late, entry_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING loan_id`,
    [c.loanId, c.day, c.interest.toString(), c.late.toString(), c.entryId],
  );
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE loans SET interest_charged = interest_charged + $2, late_charged = late_charged + $3,
       charged_through = greatest(charged_through, $4::date), updated_at = now() WHERE id = $1`,
    [c.loanId, c.interest.toString(), c.late.toString(), c.day],
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
export async function markOverdue(db: Queryable, today: string): Promise<LoanRow[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE loans SET state = 'expired', was_overdue = true, updated_at = now()
     WHERE state = 'repaying' AND due_day < $1::date RETURNING id`,
    [today],
  );
  const out: LoanRow[] = [];
  for (const r of rows) {
    const loan = await loanById(db, Number(r.id));
    if (loan) out.push(loan);
  }
  return out;
}

/** Loans due in `days` days not yet reminded for it: marked reminded, answered once. */
export async function takeReminders(db: Queryable, dueDay: string, days: 1 | 3): Promise<LoanRow[]> {
  const column = days === 3 ? 'reminded_3' : 'reminded_1';
  const rows = await db.query<{ id: string }>(
    `UPDATE loans SET ${column} = true, updated_at = now()
     WHERE state = 'repaying' AND due_day = $1::date AND NOT ${column} RETURNING id`,
    [dueDay],
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

// Repayments

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
  r: { loanId: number; userId: number; amount: bigint; day: string; requestKey: string; entryId: number },
  a: Allocation,
): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loan_repayments (loan_id, user_id, method, amount_minor, state, late, interest, principal, day,
       request_key, entry_id, decided_at)
     VALUES ($1, $2, 'balance', $3, 'approved', $4, $5, $6, $7, $8, $9, now()) RETURNING id`,
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
  a: Allocation & { day: string; close: 'repaid' | 'withdrawn' | null },
): Promise<void> {
  await tx.query(
    `UPDATE loans SET late_paid = late_paid + $2, interest_paid = interest_paid + $3,
       principal_paid = principal_paid + $4,
       state = coalesce($5, state), closed_day = CASE WHEN $5::text IS NULL THEN closed_day ELSE $6::date END,
       closed_at = CASE WHEN $5::text IS NULL THEN closed_at ELSE now() END, updated_at = now()
     WHERE id = $1`,
    [loanId, a.late.toString(), a.interest.toString(), a.principal.toString(), a.close, a.day],
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
  },
): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO loan_repayments (loan_id, user_id, method, amount_minor, state, request_key, tx_hash, address,
       proof_upload, hold_id)
     VALUES ($1, $2, 'proof', $3, 'pending', $4, $5, $6, $7, $8) RETURNING id`,
    [r.loanId, r.userId, r.amount.toString(), r.requestKey, r.txHash, r.address, r.proofUpload, r.holdId],
  );
  if (!rows[0]) throw new Error('no repayment proof inserted');
  return Number(rows[0].id);
}

export async function decideProof(
  tx: Queryable,
  id: number,
  decision: 'approved' | 'rejected',
  reason: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE loan_repayments SET state = $2, reason = $3, decided_at = now() WHERE id = $1 AND state = 'pending'`,
    [id, decision, reason],
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
