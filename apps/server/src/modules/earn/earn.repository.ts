import type { Asset, EarnIncome, EarnState, EarnType } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { releaseCapacity } from './earn.products.repository.ts';

export {
  capacityUsed,
  firstReserveRefusal,
  insertProduct,
  insertRate,
  listProducts,
  type ProductFields,
  type ProductRow,
  productById,
  rateOf,
  ratesOf,
  releaseCapacity,
  takeCapacity,
  updateProduct,
} from './earn.products.repository.ts';

/** SQL of the earn investments: investments, their incomes, the proofs staff decide (products: `earn.products.repository.ts`). */

export type InvestmentRow = {
  id: number;
  productId: number;
  productName: string;
  type: EarnType;
  userId: number;
  book: Book;
  asset: Asset;
  amount: bigint;
  income: EarnIncome;
  termDays: number | null;
  annualRatePpm: bigint | null;
  penaltyPpm: bigint;
  totalInterest: bigint | null;
  payWith: 'balance' | 'proof';
  status: EarnState;
  requestKey: string;
  txHash: string | null;
  proofUpload: string | null;
  clearingHoldId: number | null;
  accrualStart: string | null;
  endDay: string | null;
  redeemedDay: string | null;
  redeemedAt: string | null;
  receivedMinor: bigint | null;
  reason: string | null;
  unpromiseEntryId: number | null;
  promiseEntryId: number | null;
  createdAt: string;
  /** Income paid so far and on the last day paid. */
  paid: bigint;
  lastPaid: bigint | null;
  customer: string;
};

type RawInvestment = {
  id: string;
  product_id: string;
  product_name: string;
  type: EarnType;
  user_id: string;
  book: Book;
  asset: Asset;
  amount_minor: string;
  income: EarnIncome;
  term_days: number | null;
  annual_rate_ppm: string | null;
  penalty_ppm: string;
  total_interest: string | null;
  pay_with: 'balance' | 'proof';
  status: EarnState;
  request_key: string;
  tx_hash: string | null;
  proof_upload: string | null;
  clearing_hold_id: string | null;
  accrual_start: string | null;
  end_day: string | null;
  redeemed_day: string | null;
  redeemed_at: string | null;
  received_minor: string | null;
  reason: string | null;
  unpromise_entry_id: string | null;
  promise_entry_id: string | null;
  created_at: string;
  paid: string;
  last_paid: string | null;
  customer: string;
};

const big = (v: string | null) => (v === null ? null : BigInt(v));
const num = (v: string | null) => (v === null ? null : Number(v));

const toInvestment = (r: RawInvestment): InvestmentRow => ({
  id: Number(r.id),
  productId: Number(r.product_id),
  productName: r.product_name,
  type: r.type,
  userId: Number(r.user_id),
  book: r.book,
  asset: r.asset,
  amount: BigInt(r.amount_minor),
  income: r.income,
  termDays: r.term_days,
  annualRatePpm: big(r.annual_rate_ppm),
  penaltyPpm: BigInt(r.penalty_ppm),
  totalInterest: big(r.total_interest),
  payWith: r.pay_with,
  status: r.status,
  requestKey: r.request_key,
  txHash: r.tx_hash,
  proofUpload: r.proof_upload,
  promiseEntryId: num(r.promise_entry_id),
  clearingHoldId: num(r.clearing_hold_id),
  accrualStart: r.accrual_start,
  endDay: r.end_day,
  redeemedDay: r.redeemed_day,
  redeemedAt: r.redeemed_at,
  receivedMinor: big(r.received_minor),
  reason: r.reason,
  unpromiseEntryId: num(r.unpromise_entry_id),
  createdAt: r.created_at,
  paid: BigInt(r.paid),
  lastPaid: big(r.last_paid),
  customer: r.customer,
});

const INVESTMENT_SELECT = `SELECT i.id, i.product_id, p.name AS product_name, p.type, i.user_id, i.book, i.asset,
    i.amount_minor, i.income, i.term_days, i.annual_rate_ppm, i.penalty_ppm, i.total_interest, i.pay_with, i.status,
    i.request_key, i.tx_hash, i.proof_upload, i.promise_entry_id, i.clearing_hold_id, i.accrual_start::text AS accrual_start,
    i.end_day::text AS end_day, i.redeemed_day::text AS redeemed_day, i.redeemed_at::text AS redeemed_at,
    i.received_minor, i.reason, i.unpromise_entry_id, i.created_at::text AS created_at,
    coalesce((SELECT sum(amount_minor) FROM earn_incomes x WHERE x.investment_id = i.id), 0)::text AS paid,
    (SELECT amount_minor::text FROM earn_incomes x WHERE x.investment_id = i.id ORDER BY day DESC LIMIT 1) AS last_paid,
    coalesce(u.user_name, '') AS customer
  FROM earn_investments i JOIN earn_products p ON p.id = i.product_id JOIN users u ON u.id = i.user_id`;

export type NewInvestment = {
  productId: number;
  userId: number;
  book: Book;
  asset: Asset;
  amount: bigint;
  income: EarnIncome;
  termDays: number | null;
  annualRatePpm: bigint | null;
  penaltyPpm: bigint;
  totalInterest: bigint | null;
  onePerCustomer: boolean;
  payWith: 'balance' | 'proof';
  status: 'pending' | 'in_progress';
  requestKey: string;
  entryId: number | null;
  clearingHoldId: number | null;
  promiseEntryId: number | null;
  txHash: string | null;
  proofUpload: string | null;
  accrualStart: string | null;
  endDay: string | null;
  /** When it was made (the service clock, ISO). */
  createdAt: string;
};

/** Inserts an investment (in the purchase's ledger transaction); a second one of a one-per-customer product raises a unique violation. */
export async function insertInvestment(tx: Queryable, i: NewInvestment): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO earn_investments (product_id, user_id, book, asset, amount_minor, income, term_days, annual_rate_ppm,
       penalty_ppm, total_interest, one_per_customer, pay_with, status, request_key, entry_id, tx_hash,
       proof_upload, accrual_start, end_day, clearing_hold_id, promise_entry_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $22)
     RETURNING id`,
    [
      i.productId,
      i.userId,
      i.book,
      i.asset,
      i.amount.toString(),
      i.income,
      i.termDays,
      i.annualRatePpm?.toString() ?? null,
      i.penaltyPpm.toString(),
      i.totalInterest?.toString() ?? null,
      i.onePerCustomer,
      i.payWith,
      i.status,
      i.requestKey,
      i.entryId,
      i.txHash,
      i.proofUpload,
      i.accrualStart,
      i.endDay,
      i.clearingHoldId,
      i.promiseEntryId,
      i.createdAt,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('no investment inserted');
  return Number(row.id);
}

export async function investmentById(db: Queryable, id: number): Promise<InvestmentRow | null> {
  const rows = await db.query<RawInvestment>(`${INVESTMENT_SELECT} WHERE i.id = $1`, [id]);
  return rows[0] ? toInvestment(rows[0]) : null;
}

export async function investmentByRequestKey(db: Queryable, key: string): Promise<InvestmentRow | null> {
  const rows = await db.query<RawInvestment>(`${INVESTMENT_SELECT} WHERE i.request_key = $1`, [key]);
  return rows[0] ? toInvestment(rows[0]) : null;
}

export async function investmentsOf(
  db: Queryable,
  userId: number,
  book: Book,
  filter: { type?: EarnType; status?: EarnState },
): Promise<InvestmentRow[]> {
  const rows = await db.query<RawInvestment>(
    `${INVESTMENT_SELECT} WHERE i.user_id = $1 AND i.book = $2 AND ($3::text IS NULL OR p.type = $3)
       AND ($4::text IS NULL OR i.status = $4) ORDER BY i.id DESC LIMIT 200`,
    [userId, book, filter.type ?? null, filter.status ?? null],
  );
  return rows.map(toInvestment);
}

/** Investments of one product owed something for `day` in a book: a settlement page. */
export async function investmentsOwed(
  db: Queryable,
  productId: number,
  book: Book,
  afterId: number,
  limit: number,
  day: string,
): Promise<
  {
    id: number;
    ownerId: number;
    amount: bigint;
    income: EarnIncome;
    termDays: number | null;
    annualRatePpm: bigint | null;
    penaltyPpm: bigint;
    accrualStart: string;
  }[]
> {
  const rows = await db.query<{
    id: string;
    user_id: string;
    amount_minor: string;
    income: EarnIncome;
    term_days: number | null;
    annual_rate_ppm: string | null;
    penalty_ppm: string;
    accrual_start: string;
  }>(
    `SELECT id, user_id, amount_minor, income, term_days, annual_rate_ppm, penalty_ppm, accrual_start::text AS accrual_start
     FROM earn_investments
     WHERE product_id = $1 AND book = $2 AND id > $3 AND status IN ('in_progress', 'redeemed', 'expired')
       AND accrual_start <= $5::date AND (end_day IS NULL OR end_day >= $5::date)
       AND (redeemed_day IS NULL OR redeemed_day > $5::date)
     ORDER BY id LIMIT $4`,
    [productId, book, afterId, limit, day],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    ownerId: Number(r.user_id),
    amount: BigInt(r.amount_minor),
    income: r.income,
    termDays: r.term_days,
    annualRatePpm: big(r.annual_rate_ppm),
    penaltyPpm: BigInt(r.penalty_ppm),
    accrualStart: r.accrual_start,
  }));
}

export async function insertIncomes(
  tx: Queryable,
  rows: readonly { investmentId: number; day: string; amount: bigint; entryId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO earn_incomes (investment_id, day, amount_minor, entry_id)
     SELECT * FROM unnest($1::bigint[], $2::date[], $3::numeric[], $4::bigint[])`,
    [
      rows.map((r) => r.investmentId),
      rows.map((r) => r.day),
      rows.map((r) => r.amount.toString()),
      rows.map((r) => r.entryId),
    ],
  );
}

export async function incomesOf(
  db: Queryable,
  investmentId: number,
): Promise<{ day: string; amount: bigint; ratePpm: bigint | null }[]> {
  const rows = await db.query<{ day: string; amount_minor: string; rate_ppm: string | null }>(
    `SELECT x.day::text AS day, x.amount_minor, r.rate_ppm
     FROM earn_incomes x JOIN earn_investments i ON i.id = x.investment_id
     LEFT JOIN earn_rates r ON r.product_id = i.product_id AND r.day = x.day
     WHERE x.investment_id = $1 ORDER BY x.day DESC LIMIT 400`,
    [investmentId],
  );
  return rows.map((r) => ({ day: r.day, amount: BigInt(r.amount_minor), ratePpm: big(r.rate_ppm) }));
}

/** Per customer and asset: the income a product paid in a book on the days `from`..`to`, and of how many investments. */
export async function incomesBetween(
  db: Queryable,
  productId: number,
  book: Book,
  from: string,
  to: string,
  customers: { after: number; through: number },
): Promise<{ userId: number; asset: Asset; amount: bigint; investments: number }[]> {
  // Driven by the window's investments (each one's incomes of the days by its key), so a window
  // costs its own investments whatever the statistics say: joined the other way, a planner that
  // thinks the incomes few reads every income of the days for each window.
  const rows = await db.query<{ user_id: string; asset: Asset; amount: string; n: string }>(
    `SELECT i.user_id, i.asset, sum(x.amount)::text AS amount, count(*)::text AS n
     FROM earn_investments i
     CROSS JOIN LATERAL (SELECT sum(amount_minor) AS amount FROM earn_incomes
       WHERE investment_id = i.id AND day BETWEEN $3::date AND $4::date) x
     WHERE i.product_id = $1 AND i.book = $2 AND i.user_id > $5 AND i.user_id <= $6 AND x.amount IS NOT NULL
     GROUP BY i.user_id, i.asset ORDER BY i.user_id, i.asset`,
    [productId, book, from, to, customers.after, customers.through],
  );
  return rows.map((r) => ({
    userId: Number(r.user_id),
    asset: r.asset,
    amount: BigInt(r.amount),
    investments: Number(r.n),
  }));
}

/**
 * The last customer of the next window of investors after customer `after`: the window ends with
 * the customer of the `size`th investment in customer order (all of that customer's), or null when
 * no investor comes after `after`.
 */
export async function investorsThrough(db: Queryable, after: number, size: number): Promise<number | null> {
  const [row] = await db.query<{ through: string | null }>(
    `SELECT max(user_id)::text AS through
     FROM (SELECT user_id FROM earn_investments WHERE user_id > $1 ORDER BY user_id LIMIT $2) w`,
    [after, size],
  );
  return row?.through == null ? null : Number(row.through);
}

/** Per asset: principal in progress, income of `day`, income to date, of a customer in a book. */
export async function summaryOf(
  db: Queryable,
  userId: number,
  book: Book,
  day: string,
  type: EarnType | null,
): Promise<{ asset: Asset; invested: bigint; incomeDay: bigint; total: bigint }[]> {
  const rows = await db.query<{ asset: Asset; invested: string; income_day: string; total: string }>(
    `SELECT i.asset,
       coalesce(sum(i.amount_minor) FILTER (WHERE i.status = 'in_progress'), 0)::text AS invested,
       coalesce(sum((SELECT sum(amount_minor) FROM earn_incomes x WHERE x.investment_id = i.id AND x.day = $3::date)), 0)::text AS income_day,
       coalesce(sum((SELECT sum(amount_minor) FROM earn_incomes x WHERE x.investment_id = i.id)), 0)::text AS total
     FROM earn_investments i JOIN earn_products p ON p.id = i.product_id
     WHERE i.user_id = $1 AND i.book = $2 AND ($4::text IS NULL OR p.type = $4)
     GROUP BY i.asset ORDER BY i.asset`,
    [userId, book, day, type],
  );
  return rows.map((r) => ({
    asset: r.asset,
    invested: BigInt(r.invested),
    incomeDay: BigInt(r.income_day),
    total: BigInt(r.total),
  }));
}

/** Per product and book: principal in progress and how many investments. */
export async function investedByProduct(
  db: Queryable,
): Promise<Map<string, { invested: bigint; investments: number }>> {
  const rows = await db.query<{ product_id: string; book: Book; invested: string; n: string }>(
    `SELECT product_id, book, sum(amount_minor)::text AS invested, count(*)::text AS n FROM earn_investments
     WHERE status = 'in_progress' GROUP BY product_id, book`,
  );
  return new Map(
    rows.map((r) => [
      `${r.product_id}:${r.book}`,
      { invested: BigInt(r.invested), investments: Number(r.n) },
    ]),
  );
}

/** In progress and due to end by `throughDay`: principal goes back at maturity. */
export async function maturing(
  db: Queryable,
  productId: number,
  book: Book,
  throughDay: string,
  limit: number,
): Promise<InvestmentRow[]> {
  const rows = await db.query<RawInvestment>(
    `${INVESTMENT_SELECT} WHERE i.product_id = $1 AND i.book = $2 AND i.status = 'in_progress'
       AND i.end_day <= $3::date ORDER BY i.id LIMIT $4`,
    [productId, book, throughDay, limit],
  );
  return rows.map(toInvestment);
}

/** Marks investments ended (expired at maturity, or redeemed early, `at` by the service clock) and releases their capacity. */
export async function markEnded(
  tx: Queryable,
  rows: readonly {
    id: number;
    status: 'expired' | 'redeemed';
    redeemedDay: string | null;
    received: bigint;
    penalty: bigint;
    at: string;
  }[],
): Promise<void> {
  for (const r of rows) {
    const done = await tx.query<{ product_id: string; book: Book; amount_minor: string }>(
      `UPDATE earn_investments SET status = $2, redeemed_day = $3::date,
         redeemed_at = CASE WHEN $2 = 'redeemed' THEN $6::timestamptz END,
         matured_at = CASE WHEN $2 = 'expired' THEN $6::timestamptz END,
         received_minor = $4, penalty_minor = $5, updated_at = $6
       WHERE id = $1 AND status = 'in_progress' RETURNING product_id, book, amount_minor`,
      [r.id, r.status, r.redeemedDay, r.received.toString(), r.penalty.toString(), r.at],
    );
    const row = done[0];
    if (!row) throw new Error(`investment ${r.id} is not in progress`);
    await releaseCapacity(tx, Number(row.product_id), row.book, BigInt(row.amount_minor));
  }
}

export async function pendingProofs(
  db: Queryable,
  after: number | null,
  limit: number,
): Promise<InvestmentRow[]> {
  const rows = await db.query<RawInvestment>(
    `${INVESTMENT_SELECT} WHERE i.status = 'pending' AND i.id > $1 ORDER BY i.id LIMIT $2`,
    [after ?? 0, limit],
  );
  return rows.map(toInvestment);
}

export async function approveProofInTx(
  tx: Queryable,
  id: number,
  change: { entryId: number | null; accrualStart: string; endDay: string | null; at: string },
): Promise<void> {
  const rows = await tx.query(
    `UPDATE earn_investments SET status = 'in_progress', entry_id = coalesce($2, entry_id), accrual_start = $3::date,
       end_day = $4::date, updated_at = $5 WHERE id = $1 AND status = 'pending' RETURNING id`,
    [id, change.entryId, change.accrualStart, change.endDay, change.at],
  );
  if (rows.length === 0) throw new Error(`investment ${id} is not pending`);
}

export async function rejectProofInTx(tx: Queryable, id: number, reason: string, at: string): Promise<void> {
  const rows = await tx.query<{ product_id: string; book: Book; amount_minor: string }>(
    `UPDATE earn_investments SET status = 'rejected', reason = $2, updated_at = $3
     WHERE id = $1 AND status = 'pending' RETURNING product_id, book, amount_minor`,
    [id, reason, at],
  );
  const row = rows[0];
  if (!row) throw new Error(`investment ${id} is not pending`);
  await releaseCapacity(tx, Number(row.product_id), row.book, BigInt(row.amount_minor));
}

/** Rejected proofs whose promised interest has not gone back to the reserve yet. */
export async function rejectedUnreturned(db: Queryable, limit: number): Promise<InvestmentRow[]> {
  const rows = await db.query<RawInvestment>(
    `${INVESTMENT_SELECT} WHERE i.status = 'rejected' AND i.promise_entry_id IS NOT NULL AND i.unpromise_entry_id IS NULL
     ORDER BY i.id LIMIT $1`,
    [limit],
  );
  return rows.map(toInvestment);
}

export async function setPromised(tx: Queryable, id: number, entryId: number): Promise<void> {
  await tx.query('UPDATE earn_investments SET promise_entry_id = $2 WHERE id = $1', [id, entryId]);
}

export async function setUnpromised(tx: Queryable, id: number, entryId: number): Promise<void> {
  await tx.query('UPDATE earn_investments SET unpromise_entry_id = $2 WHERE id = $1', [id, entryId]);
}
