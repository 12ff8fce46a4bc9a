import type { Direction, PendingOrderState, PendingOrderType, PendingRejectReason } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';

/** SQL of pending entry orders. Ticks and amounts cross this boundary as bigint; the database holds numeric. */

export type PendingRow = {
  id: number;
  userId: number;
  book: Book;
  requestId: string;
  instrumentId: number;
  code: string;
  type: PendingOrderType;
  direction: Direction;
  centilots: bigint;
  leverage: number;
  priceDecimals: number;
  levelTicks: bigint;
  stopLossTicks: bigint;
  takeProfitTicks: bigint;
  autoCloseAfter: number | null;
  language: string;
  heldMinor: bigint;
  holdId: number;
  expiresAt: string | null;
  placedTick: number;
  state: PendingOrderState;
  reason: PendingRejectReason | null;
  fillTick: number | null;
  fillTicks: bigint | null;
  positionId: number | null;
  released: boolean;
  createdAt: string;
  endedAt: string | null;
};

/** What placing writes, in the hold's transaction (the hold id comes from the ledger). */
export type NewPending = Omit<
  PendingRow,
  | 'id'
  | 'holdId'
  | 'state'
  | 'reason'
  | 'fillTick'
  | 'fillTicks'
  | 'positionId'
  | 'released'
  | 'createdAt'
  | 'endedAt'
>;

const COLUMNS = `id, user_id, book, request_id, instrument_id, code, order_type, direction, centilots,
  leverage, price_decimals, level_ticks, stop_loss_ticks, take_profit_ticks, auto_close_after, language,
  held_minor, hold_id, expires_at, placed_tick, state, reason, fill_tick, fill_ticks, position_id,
  released, created_at, ended_at`;

type Raw = Record<string, string | number | boolean | Date | null>;
const big = (v: unknown): bigint => BigInt(v as string);
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const optional = <T>(v: unknown, f: (v: unknown) => T): T | null =>
  v === null || v === undefined ? null : f(v);

function fromRow(r: Raw): PendingRow {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    book: r.book as Book,
    requestId: String(r.request_id),
    instrumentId: Number(r.instrument_id),
    code: String(r.code),
    type: r.order_type as PendingOrderType,
    direction: r.direction as Direction,
    centilots: big(r.centilots),
    leverage: Number(r.leverage),
    priceDecimals: Number(r.price_decimals),
    levelTicks: big(r.level_ticks),
    stopLossTicks: big(r.stop_loss_ticks),
    takeProfitTicks: big(r.take_profit_ticks),
    autoCloseAfter: optional(r.auto_close_after, Number),
    language: String(r.language),
    heldMinor: big(r.held_minor),
    holdId: Number(r.hold_id),
    expiresAt: optional(r.expires_at, iso),
    placedTick: Number(r.placed_tick),
    state: r.state as PendingOrderState,
    reason: (r.reason ?? null) as PendingRejectReason | null,
    fillTick: optional(r.fill_tick, Number),
    fillTicks: optional(r.fill_ticks, big),
    positionId: optional(r.position_id, Number),
    released: r.released === true,
    createdAt: iso(r.created_at),
    endedAt: optional(r.ended_at, iso),
  };
}

async function rows(db: Queryable, sql: string, params: readonly unknown[]): Promise<PendingRow[]> {
  return (await db.query<Raw>(sql, params)).map(fromRow);
}

/** The orders a batch of holds placed (the hold attachment's writer): their ids by hold id. */
export async function insertPending(
  tx: Queryable,
  placed: readonly { holdId: number; data: NewPending }[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const { holdId, data: o } of placed) {
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO pending_orders (user_id, book, request_id, instrument_id, code, order_type, direction,
         centilots, leverage, price_decimals, level_ticks, stop_loss_ticks, take_profit_ticks,
         auto_close_after, language, held_minor, hold_id, expires_at, placed_tick, created_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20) RETURNING id`,
      [
        o.userId,
        o.book,
        o.requestId,
        o.instrumentId,
        o.code,
        o.type,
        o.direction,
        o.centilots.toString(),
        o.leverage,
        o.priceDecimals,
        o.levelTicks.toString(),
        o.stopLossTicks.toString(),
        o.takeProfitTicks.toString(),
        o.autoCloseAfter,
        o.language,
        o.heldMinor.toString(),
        holdId,
        o.expiresAt,
        o.placedTick,
        new Date(o.placedTick * 1000).toISOString(),
      ],
    );
    if (row) out.set(holdId, Number(row.id));
  }
  return out;
}

export async function pendingById(db: Queryable, id: number): Promise<PendingRow | null> {
  return (await rows(db, `SELECT ${COLUMNS} FROM pending_orders WHERE id = $1`, [id]))[0] ?? null;
}

/** One of a customer's orders in one book: another customer's (or book's) is not found. */
export async function pendingOf(
  db: Queryable,
  of: { id: number; userId: number; book: Book },
): Promise<PendingRow | null> {
  const sql = `SELECT ${COLUMNS} FROM pending_orders WHERE id = $1 AND user_id = $2 AND book = $3`;
  return (await rows(db, sql, [of.id, of.userId, of.book]))[0] ?? null;
}

export async function pendingByRequest(
  db: Queryable,
  userId: number,
  book: Book,
  requestId: string,
): Promise<PendingRow | null> {
  const sql = `SELECT ${COLUMNS} FROM pending_orders WHERE user_id = $1 AND book = $2 AND request_id = $3`;
  return (await rows(db, sql, [userId, book, requestId]))[0] ?? null;
}

/** Orders open or mid-fill with ids above `after`, in id order (the engine's load and sync). */
export function livePendingAfter(db: Queryable, after: number, limit: number): Promise<PendingRow[]> {
  return rows(
    db,
    `SELECT ${COLUMNS} FROM pending_orders WHERE state IN ('open', 'filling') AND id > $1 ORDER BY id LIMIT $2`,
    [after, limit],
  );
}

/** A customer's orders, open ones or ended ones (history), newest first; and how many there are. */
export async function pendingPageOf(
  db: Queryable,
  of: { userId: number; book: Book; history: boolean },
  offset: number,
  limit: number,
): Promise<{ items: PendingRow[]; total: number }> {
  const states = of.history ? ['filled', 'cancelled', 'expired', 'rejected'] : ['open', 'filling'];
  const where = 'WHERE user_id = $1 AND book = $2 AND state = ANY($3::text[])';
  const items = await rows(
    db,
    `SELECT ${COLUMNS} FROM pending_orders ${where} ORDER BY id DESC OFFSET $4 LIMIT $5`,
    [of.userId, of.book, states, offset, limit],
  );
  const [count] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM pending_orders ${where}`, [
    of.userId,
    of.book,
    states,
  ]);
  return { items, total: Number(count?.n ?? 0) };
}

/**
 * Claims an open order's fill at tick t and price `ticks`: open -> filling, once (whoever updates
 * first: one node, or a cancel, wins), and only while it has not expired by t.
 */
export async function claimFill(
  db: Queryable,
  id: number,
  t: number,
  ticks: bigint,
): Promise<PendingRow | null> {
  const sql = `UPDATE pending_orders SET state = 'filling', fill_tick = $2, fill_ticks = $3
     WHERE id = $1 AND state = 'open' AND (expires_at IS NULL OR expires_at > to_timestamp($2))
     RETURNING ${COLUMNS}`;
  return (await rows(db, sql, [id, t, ticks.toString()]))[0] ?? null;
}

/** A claimed fill's end: filled with its position, or rejected with its reason. */
export async function endFill(
  db: Queryable,
  id: number,
  end: { positionId: number } | { reason: PendingRejectReason },
  at: string,
): Promise<PendingRow | null> {
  const filled = 'positionId' in end;
  const sql = `UPDATE pending_orders SET state = $2, position_id = $3, reason = $4, ended_at = $5,
       released = true
     WHERE id = $1 AND state = 'filling' RETURNING ${COLUMNS}`;
  const params = [
    id,
    filled ? 'filled' : 'rejected',
    filled ? end.positionId : null,
    filled ? null : end.reason,
    at,
  ];
  return (await rows(db, sql, params))[0] ?? null;
}

/** Ends an open order (cancelled by its customer, or expired): open -> that state, once. */
export async function endOpen(
  db: Queryable,
  id: number,
  state: 'cancelled' | 'expired',
  at: string,
): Promise<PendingRow | null> {
  const sql = `UPDATE pending_orders SET state = $2, ended_at = $3 WHERE id = $1 AND state = 'open' RETURNING ${COLUMNS}`;
  return (await rows(db, sql, [id, state, at]))[0] ?? null;
}

/** An edit of an open order (level, stops, expiry, and what it holds), only while it is open and holds `holdId`. */
export async function editOpen(
  db: Queryable,
  id: number,
  holdId: number,
  change: Pick<
    PendingRow,
    'levelTicks' | 'stopLossTicks' | 'takeProfitTicks' | 'expiresAt' | 'heldMinor' | 'holdId'
  >,
): Promise<PendingRow | null> {
  const sql = `UPDATE pending_orders SET level_ticks = $3, stop_loss_ticks = $4, take_profit_ticks = $5,
       expires_at = $6, held_minor = $7, hold_id = $8
     WHERE id = $1 AND hold_id = $2 AND state = 'open' RETURNING ${COLUMNS}`;
  const params = [
    id,
    holdId,
    change.levelTicks.toString(),
    change.stopLossTicks.toString(),
    change.takeProfitTicks.toString(),
    change.expiresAt,
    change.heldMinor.toString(),
    change.holdId,
  ];
  return (await rows(db, sql, params))[0] ?? null;
}

export async function markReleased(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE pending_orders SET released = true WHERE id = $1', [id]);
}

/** Ended orders whose hold is still to be voided (a release that failed, tried again by the job). */
export function unreleased(db: Queryable, limit: number): Promise<PendingRow[]> {
  return rows(
    db,
    `SELECT ${COLUMNS} FROM pending_orders WHERE NOT released AND state IN ('cancelled', 'expired', 'rejected', 'filled')
     ORDER BY id LIMIT $1`,
    [limit],
  );
}

/** Open orders whose expiry has passed at `at`, and fills claimed but not ended (a node stopped mid-fill). */
export function dueForJob(db: Queryable, at: string, limit: number): Promise<PendingRow[]> {
  return rows(
    db,
    `SELECT ${COLUMNS} FROM pending_orders
     WHERE (state = 'open' AND expires_at <= $1) OR state = 'filling' ORDER BY id LIMIT $2`,
    [at, limit],
  );
}
