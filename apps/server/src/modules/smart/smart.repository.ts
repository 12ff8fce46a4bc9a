import type { SmartState, SmartStrategy } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of smart plans. Amounts cross this boundary as bigint; the database holds numeric. */

type Raw = Record<string, unknown>;
const big = (v: unknown): bigint => BigInt(v as string);
const num = (v: unknown): number => Number(v);
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const day = (v: unknown): string =>
  v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);

export type ProductFields = {
  name: string;
  strategy: SmartStrategy;
  instrument: string;
  asset: string;
  timeframes: number[];
  minMinor: bigint;
  maxMinor: bigint;
  capacityMinor: bigint;
  feeSharePpm: bigint;
  enabled: boolean;
};
export type ProductRow = ProductFields & { id: number; takenMinor: bigint };

const PRODUCT_COLUMNS = `id, name, strategy, instrument, asset, timeframes, min_minor, max_minor, capacity_minor,
  taken_minor, fee_share_ppm, enabled`;

function productOf(r: Raw): ProductRow {
  return {
    id: num(r.id),
    name: String(r.name),
    strategy: r.strategy as SmartStrategy,
    instrument: String(r.instrument),
    asset: String(r.asset),
    timeframes: (r.timeframes as (number | string)[]).map(Number),
    minMinor: big(r.min_minor),
    maxMinor: big(r.max_minor),
    capacityMinor: big(r.capacity_minor),
    takenMinor: big(r.taken_minor),
    feeSharePpm: big(r.fee_share_ppm),
    enabled: Boolean(r.enabled),
  };
}

const productParams = (p: ProductFields) => [
  p.name,
  p.strategy,
  p.instrument,
  p.asset,
  p.timeframes,
  p.minMinor.toString(),
  p.maxMinor.toString(),
  p.capacityMinor.toString(),
  p.feeSharePpm.toString(),
  p.enabled,
];

/** `at`: the service clock's time (ISO), never the database's. */
export async function insertProduct(tx: Queryable, p: ProductFields, at: string): Promise<ProductRow> {
  const [row] = await tx.query<Raw>(
    `INSERT INTO smart_products (name, strategy, instrument, asset, timeframes, min_minor, max_minor,
       capacity_minor, fee_share_ppm, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::integer[], $6, $7, $8, $9, $10, $11, $11) RETURNING ${PRODUCT_COLUMNS}`,
    [...productParams(p), at],
  );
  if (!row) throw new Error('smart product not inserted');
  return productOf(row);
}

/** Changes a product; a capacity below what plans hold now is refused by the table (CHECK). */
export async function updateProduct(
  tx: Queryable,
  id: number,
  p: ProductFields,
  at: string,
): Promise<ProductRow | null> {
  const [row] = await tx.query<Raw>(
    `UPDATE smart_products SET name = $2, strategy = $3, instrument = $4, asset = $5, timeframes = $6::integer[],
       min_minor = $7, max_minor = $8, capacity_minor = $9, fee_share_ppm = $10, enabled = $11, updated_at = $12
     WHERE id = $1 RETURNING ${PRODUCT_COLUMNS}`,
    [id, ...productParams(p), at],
  );
  return row ? productOf(row) : null;
}

export async function productById(db: Queryable, id: number): Promise<ProductRow | null> {
  const [row] = await db.query<Raw>(`SELECT ${PRODUCT_COLUMNS} FROM smart_products WHERE id = $1`, [id]);
  return row ? productOf(row) : null;
}

export async function listProducts(db: Queryable): Promise<ProductRow[]> {
  const rows = await db.query<Raw>(`SELECT ${PRODUCT_COLUMNS} FROM smart_products ORDER BY id`);
  return rows.map(productOf);
}

/** Takes room in a product for a plan: one conditional update, so concurrent buys never exceed the capacity. */
export async function takeCapacity(tx: Queryable, productId: number, amount: bigint): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE smart_products SET taken_minor = taken_minor + $2
     WHERE id = $1 AND taken_minor + $2 <= capacity_minor RETURNING id`,
    [productId, amount.toString()],
  );
  return rows.length > 0;
}

export async function releaseCapacity(tx: Queryable, productId: number, amount: bigint): Promise<void> {
  await tx.query('UPDATE smart_products SET taken_minor = taken_minor - $2 WHERE id = $1', [
    productId,
    amount.toString(),
  ]);
}

export type NewPlan = {
  productId: number;
  userId: number;
  strategy: SmartStrategy;
  instrument: string;
  asset: string;
  amountMinor: bigint;
  minMinor: bigint;
  maxMinor: bigint;
  timeframeDays: number;
  feeSharePpm: bigint;
  language: string;
  startTick: number;
  endTick: number;
  requestKey: string;
};

export type PlanRow = NewPlan & {
  id: number;
  book: 'live';
  state: SmartState;
  endReason: 'expired' | 'stopped' | 'drawdown' | null;
  lastTick: number;
  entryId: number;
  feeMinor: bigint | null;
  returnedMinor: bigint | null;
  endEntryId: number | null;
  endedAt: string | null;
  createdAt: string;
};

const PLAN_COLUMNS = `id, product_id, user_id, book, strategy, instrument, asset, amount_minor, min_minor, max_minor,
  timeframe_days, fee_share_ppm, language, state, end_reason, start_tick, end_tick, last_tick, request_key,
  entry_id, fee_minor, returned_minor, end_entry_id, ended_at, created_at`;

function planOf(r: Raw): PlanRow {
  return {
    id: num(r.id),
    productId: num(r.product_id),
    userId: num(r.user_id),
    book: 'live',
    strategy: r.strategy as SmartStrategy,
    instrument: String(r.instrument),
    asset: String(r.asset),
    amountMinor: big(r.amount_minor),
    minMinor: big(r.min_minor),
    maxMinor: big(r.max_minor),
    timeframeDays: num(r.timeframe_days),
    feeSharePpm: big(r.fee_share_ppm),
    language: String(r.language),
    state: r.state as SmartState,
    endReason: (r.end_reason as PlanRow['endReason']) ?? null,
    startTick: num(r.start_tick),
    endTick: num(r.end_tick),
    lastTick: num(r.last_tick),
    requestKey: String(r.request_key),
    entryId: num(r.entry_id),
    feeMinor: r.fee_minor === null ? null : big(r.fee_minor),
    returnedMinor: r.returned_minor === null ? null : big(r.returned_minor),
    endEntryId: r.end_entry_id === null ? null : num(r.end_entry_id),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    createdAt: iso(r.created_at),
  };
}

/** Writes a plan bought by a ledger entry (the entry's attachment, in its transaction). */
export async function insertPlan(tx: Queryable, p: NewPlan, entryId: number, at: string): Promise<number> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO smart_plans (product_id, user_id, book, strategy, instrument, asset, amount_minor, min_minor,
       max_minor, timeframe_days, fee_share_ppm, language, state, start_tick, end_tick, last_tick, request_key, entry_id,
       created_at)
     VALUES ($1, $2, 'live', $3, $4, $5, $6, $7, $8, $9, $10, $11, 'in_progress', $12, $13, $12, $14, $15, $16)
     RETURNING id`,
    [
      p.productId,
      p.userId,
      p.strategy,
      p.instrument,
      p.asset,
      p.amountMinor.toString(),
      p.minMinor.toString(),
      p.maxMinor.toString(),
      p.timeframeDays,
      p.feeSharePpm.toString(),
      p.language,
      p.startTick,
      p.endTick,
      p.requestKey,
      entryId,
      at,
    ],
  );
  if (!row) throw new Error('smart plan not inserted');
  return Number(row.id);
}

export async function planById(db: Queryable, id: number): Promise<PlanRow | null> {
  const [row] = await db.query<Raw>(`SELECT ${PLAN_COLUMNS} FROM smart_plans WHERE id = $1`, [id]);
  return row ? planOf(row) : null;
}

export async function planByRequestKey(db: Queryable, key: string): Promise<PlanRow | null> {
  const [row] = await db.query<Raw>(`SELECT ${PLAN_COLUMNS} FROM smart_plans WHERE request_key = $1`, [key]);
  return row ? planOf(row) : null;
}

export async function plansOfUser(
  db: Queryable,
  userId: number,
  state: SmartState | null,
): Promise<PlanRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PLAN_COLUMNS} FROM smart_plans WHERE user_id = $1 AND ($2::text IS NULL OR state = $2)
     ORDER BY id DESC LIMIT 500`,
    [userId, state],
  );
  return rows.map(planOf);
}

/** Plans for the staff monitor, newest first. */
export async function plansForMonitor(
  db: Queryable,
  filter: { state: SmartState | null; productId: number | null },
): Promise<(PlanRow & { customer: string })[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PLAN_COLUMNS.replace(/(\w+)/g, 'p.$1')}, u.user_name AS customer
     FROM smart_plans p JOIN users u ON u.id = p.user_id
     WHERE ($1::text IS NULL OR p.state = $1) AND ($2::bigint IS NULL OR p.product_id = $2)
     ORDER BY p.id DESC LIMIT 200`,
    [filter.state, filter.productId],
  );
  return rows.map((r) => ({ ...planOf(r), customer: String(r.customer) }));
}

export async function plansOfProduct(db: Queryable, productId: number): Promise<PlanRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PLAN_COLUMNS} FROM smart_plans WHERE product_id = $1 ORDER BY id DESC LIMIT 100`,
    [productId],
  );
  return rows.map(planOf);
}

/** Plans in progress with an id above `afterId` (the live runner pages through them). */
export async function runningPlans(db: Queryable, afterId: number, limit: number): Promise<PlanRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PLAN_COLUMNS} FROM smart_plans WHERE state = 'in_progress' AND id > $1 ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map(planOf);
}

/**
 * Takes the plan's lease (one stepper at a time across nodes: the runner or a stop): one
 * conditional update, won when free, expired or already ours.
 */
export async function claimPlan(
  db: Queryable,
  id: number,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE smart_plans SET lease_owner = $2, lease_until = $4
     WHERE id = $1 AND (lease_until IS NULL OR lease_until < $3 OR lease_owner = $2) RETURNING id`,
    [id, owner, now, until],
  );
  return rows.length > 0;
}

export async function releasePlan(db: Queryable, id: number, owner: string): Promise<void> {
  await db.query('UPDATE smart_plans SET lease_until = NULL WHERE id = $1 AND lease_owner = $2', [id, owner]);
}

/** The live runner's progress: only forward. */
export async function advancePlan(db: Queryable, id: number, lastTick: number): Promise<void> {
  await db.query(
    `UPDATE smart_plans SET last_tick = greatest(last_tick, $2) WHERE id = $1 AND state = 'in_progress'`,
    [id, lastTick],
  );
}

export type PlanEnd = {
  id: number;
  state: SmartState;
  endReason: 'expired' | 'stopped' | 'drawdown';
  feeMinor: bigint;
  returnedMinor: bigint;
  lastTick: number;
  /** ISO time on the service's clock (a movable sandbox clock included). */
  endedAt: string;
};

/** Ends a plan (the end entry's attachment) and gives its room in the product back. */
export async function endPlan(tx: Queryable, end: PlanEnd, entryId: number): Promise<void> {
  const rows = await tx.query<{ product_id: string; amount_minor: string }>(
    `UPDATE smart_plans SET state = $2, end_reason = $3, fee_minor = $4, returned_minor = $5, end_entry_id = $6,
       last_tick = greatest(last_tick, $7), ended_at = $8
     WHERE id = $1 AND state = 'in_progress' RETURNING product_id, amount_minor`,
    [
      end.id,
      end.state,
      end.endReason,
      end.feeMinor.toString(),
      end.returnedMinor.toString(),
      entryId,
      end.lastTick,
      end.endedAt,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`smart plan ${end.id} is not in progress`);
  await releaseCapacity(tx, Number(row.product_id), BigInt(row.amount_minor));
}

export type IncomeRow = {
  planId: number;
  day: string;
  amountMinor: bigint;
  trades: number;
  postedAt: string;
};

const incomeOf = (r: Raw): IncomeRow => ({
  planId: num(r.plan_id),
  day: day(r.day),
  amountMinor: big(r.amount_minor),
  trades: num(r.trades),
  postedAt: iso(r.posted_at),
});

/** Records a day's realised result once (a second run of the day changes nothing). */
export async function insertIncome(
  db: Queryable,
  row: { planId: number; day: string; amountMinor: bigint; trades: number; postedAt: string },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO smart_incomes (plan_id, day, amount_minor, trades, posted_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (plan_id, day) DO NOTHING RETURNING plan_id`,
    [row.planId, row.day, row.amountMinor.toString(), row.trades, row.postedAt],
  );
  return rows.length > 0;
}

export async function incomesOf(db: Queryable, planIds: readonly number[]): Promise<IncomeRow[]> {
  if (planIds.length === 0) return [];
  const rows = await db.query<Raw>(
    `SELECT plan_id, day, amount_minor, trades, posted_at FROM smart_incomes
     WHERE plan_id = ANY($1::bigint[]) ORDER BY plan_id, day`,
    [planIds],
  );
  return rows.map(incomeOf);
}

/** Plans (in progress or ended on or after `day`) that started before the end of `day`: the day's income to post. */
export async function plansActiveOn(db: Queryable, dayStart: number, dayEnd: number): Promise<PlanRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${PLAN_COLUMNS} FROM smart_plans
     WHERE start_tick < $2 AND (state = 'in_progress' OR ended_at >= to_timestamp($1))
     ORDER BY id`,
    [dayStart, dayEnd],
  );
  return rows.map(planOf);
}

export async function backtestOf(db: Queryable, productId: number, onDay: string): Promise<unknown | null> {
  const [row] = await db.query<{ report: unknown }>(
    'SELECT report FROM smart_backtests WHERE product_id = $1 AND day = $2',
    [productId, onDay],
  );
  return row ? row.report : null;
}

export async function saveBacktest(
  db: Queryable,
  productId: number,
  onDay: string,
  report: unknown,
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO smart_backtests (product_id, day, report, created_at) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (product_id, day) DO NOTHING`,
    [productId, onDay, JSON.stringify(report), at],
  );
}
