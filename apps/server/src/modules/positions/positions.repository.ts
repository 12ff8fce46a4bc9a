import type { CloseReason, Direction } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';
import type { PositionRow as DeskRow } from '../products/ports.ts';

/** SQL of positions. Ticks and amounts cross this boundary as bigint; the database holds numeric. */

/**
 * A position as the positions module reads it: the row the products' desk knows, and its trailing
 * stop (distance and level in ticks; both null without one). The level is the one last written:
 * the trigger engine moves it on ticks and writes it on a cadence and at the close.
 */
export type PositionRow = DeskRow & {
  trailingDistanceTicks: bigint | null;
  trailingLevelTicks: bigint | null;
};

/** A position as the open entry's attachment carries it (everything but what the database assigns). */
export type NewPosition = Omit<
  PositionRow,
  | 'id'
  | 'openEntryId'
  | 'openedAt'
  | 'status'
  | 'closeReason'
  | 'closeTicks'
  | 'closeTick'
  | 'profitMinor'
  | 'absorbedMinor'
  | 'closeEntryId'
  | 'closedAt'
>;

export type PositionClose = {
  id: number;
  reason: CloseReason;
  closeTicks: bigint;
  closeTick: number;
  profitMinor: bigint;
  absorbedMinor: bigint;
  /** The trailing stop's level at the close (the engine's, which may be ahead of the one written). */
  trailingLevelTicks: bigint | null;
};

const COLUMNS = `id, user_id, book, instrument_id, code, direction, centilots, lot_size, leverage,
  price_decimals, open_ticks, stop_loss_ticks, take_profit_ticks, liquidation_ticks, conversion_num,
  conversion_den, notional_minor, margin_minor, fee_minor, fee_ppm, open_tick, live_tick, expires_tick,
  language, request_id, open_entry_id, opened_at, status, close_reason, close_ticks, close_tick,
  profit_minor, absorbed_minor, close_entry_id, closed_at, plan_id, trailing_distance_ticks,
  trailing_level_ticks`;

type Raw = Record<string, string | number | Date | null>;

const big = (v: unknown): bigint => BigInt(v as string);
const num = (v: unknown): number => Number(v);
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function fromRow(r: Raw): PositionRow {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    book: r.book as Book,
    instrumentId: num(r.instrument_id),
    code: String(r.code),
    direction: r.direction as Direction,
    centilots: big(r.centilots),
    lotSize: big(r.lot_size),
    leverage: num(r.leverage),
    priceDecimals: num(r.price_decimals),
    openTicks: big(r.open_ticks),
    stopLossTicks: big(r.stop_loss_ticks),
    takeProfitTicks: big(r.take_profit_ticks),
    liquidationTicks: big(r.liquidation_ticks),
    conversionNum: big(r.conversion_num),
    conversionDen: big(r.conversion_den),
    notionalMinor: big(r.notional_minor),
    marginMinor: big(r.margin_minor),
    feeMinor: big(r.fee_minor),
    feePpm: num(r.fee_ppm),
    openTick: num(r.open_tick),
    liveTick: num(r.live_tick),
    expiresTick: r.expires_tick === null ? null : num(r.expires_tick),
    language: String(r.language),
    requestId: String(r.request_id),
    openEntryId: num(r.open_entry_id),
    openedAt: iso(r.opened_at),
    status: r.status as 'open' | 'closed',
    closeReason: (r.close_reason as CloseReason | null) ?? null,
    closeTicks: r.close_ticks === null ? null : big(r.close_ticks),
    closeTick: r.close_tick === null ? null : num(r.close_tick),
    profitMinor: r.profit_minor === null ? null : big(r.profit_minor),
    absorbedMinor: big(r.absorbed_minor),
    closeEntryId: r.close_entry_id === null ? null : num(r.close_entry_id),
    closedAt: r.closed_at === null ? null : iso(r.closed_at),
    planId: r.plan_id === null || r.plan_id === undefined ? null : num(r.plan_id),
    trailingDistanceTicks: r.trailing_distance_ticks == null ? null : big(r.trailing_distance_ticks),
    trailingLevelTicks: r.trailing_level_ticks == null ? null : big(r.trailing_level_ticks),
  };
}

/** Inserts the positions opened by a batch of ledger entries (one statement), in the ledger's transaction. */
export async function insertPositions(
  tx: Queryable,
  rows: readonly { entryId: number; position: NewPosition }[],
): Promise<Map<number, { id: number; openedAt: string }>> {
  const col = <T>(pick: (p: NewPosition) => T) => rows.map((r) => pick(r.position));
  const inserted = await tx.query<{ id: string; open_entry_id: string; opened_at: string | Date }>(
    `INSERT INTO positions (user_id, book, instrument_id, code, direction, centilots, lot_size, leverage,
       price_decimals, open_ticks, stop_loss_ticks, take_profit_ticks, liquidation_ticks, conversion_num,
       conversion_den, notional_minor, margin_minor, fee_minor, fee_ppm, open_tick, live_tick, expires_tick,
       language, request_id, open_entry_id, plan_id, trailing_distance_ticks, trailing_level_ticks)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::bigint[],
       $7::numeric[], $8::int[], $9::smallint[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[],
       $14::numeric[], $15::numeric[], $16::numeric[], $17::numeric[], $18::numeric[], $19::int[], $20::bigint[],
       $21::bigint[], $22::bigint[], $23::text[], $24::text[], $25::bigint[], $26::bigint[], $27::numeric[],
       $28::numeric[])
     RETURNING id, open_entry_id, opened_at`,
    [
      col((p) => p.userId),
      col((p) => p.book),
      col((p) => p.instrumentId),
      col((p) => p.code),
      col((p) => p.direction),
      col((p) => p.centilots.toString()),
      col((p) => p.lotSize.toString()),
      col((p) => p.leverage),
      col((p) => p.priceDecimals),
      col((p) => p.openTicks.toString()),
      col((p) => p.stopLossTicks.toString()),
      col((p) => p.takeProfitTicks.toString()),
      col((p) => p.liquidationTicks.toString()),
      col((p) => p.conversionNum.toString()),
      col((p) => p.conversionDen.toString()),
      col((p) => p.notionalMinor.toString()),
      col((p) => p.marginMinor.toString()),
      col((p) => p.feeMinor.toString()),
      col((p) => p.feePpm),
      col((p) => p.openTick),
      col((p) => p.liveTick),
      col((p) => p.expiresTick),
      col((p) => p.language),
      col((p) => p.requestId),
      rows.map((r) => r.entryId),
      col((p) => p.planId),
      col((p) => p.trailingDistanceTicks?.toString() ?? null),
      col((p) => p.trailingLevelTicks?.toString() ?? null),
    ],
  );
  return new Map(
    inserted.map((r) => [Number(r.open_entry_id), { id: Number(r.id), openedAt: iso(r.opened_at) }]),
  );
}

/** A position row as it is right after opening, from what was inserted (no read needed). */
export function openedRow(
  position: NewPosition,
  id: number,
  openEntryId: number,
  openedAt: string,
): PositionRow {
  return {
    ...position,
    id,
    openEntryId,
    openedAt,
    status: 'open',
    closeReason: null,
    closeTicks: null,
    closeTick: null,
    profitMinor: null,
    absorbedMinor: 0n,
    closeEntryId: null,
    closedAt: null,
  };
}

/**
 * Closes the positions of a batch of closing entries, in the ledger's transaction. Each must still
 * be open: anything else is a broken invariant and fails the transaction (the money stays put).
 */
export async function closePositions(
  tx: Queryable,
  rows: readonly { entryId: number; close: PositionClose }[],
): Promise<undefined> {
  const updated = await tx.query<{ id: string }>(
    `UPDATE positions p SET status = 'closed', close_reason = c.reason, close_ticks = c.close_ticks,
       close_tick = c.close_tick, profit_minor = c.profit, absorbed_minor = c.absorbed,
       close_entry_id = c.entry_id, closed_at = now(),
       trailing_level_ticks = CASE WHEN p.trailing_distance_ticks IS NULL OR c.trail_level IS NULL
         THEN p.trailing_level_ticks
         WHEN p.direction = 'long' THEN greatest(p.trailing_level_ticks, c.trail_level)
         ELSE least(p.trailing_level_ticks, c.trail_level) END
     FROM unnest($1::bigint[], $2::text[], $3::numeric[], $4::bigint[], $5::numeric[], $6::numeric[], $7::bigint[],
       $8::numeric[])
       AS c(id, reason, close_ticks, close_tick, profit, absorbed, entry_id, trail_level)
     WHERE p.id = c.id AND p.status = 'open'
     RETURNING p.id`,
    [
      rows.map((r) => r.close.id),
      rows.map((r) => r.close.reason),
      rows.map((r) => r.close.closeTicks.toString()),
      rows.map((r) => r.close.closeTick),
      rows.map((r) => r.close.profitMinor.toString()),
      rows.map((r) => r.close.absorbedMinor.toString()),
      rows.map((r) => r.entryId),
      rows.map((r) => r.close.trailingLevelTicks?.toString() ?? null),
    ],
  );
  if (updated.length !== rows.length) throw new Error('a position to close is not open');
  return undefined;
}

export async function positionById(db: Queryable, id: number): Promise<PositionRow | null> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM positions WHERE id = $1`, [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** One of a customer's positions in one book; another customer's or the other book's: none. */
export async function positionOf(
  db: Queryable,
  key: { id: number; userId: number; book: Book },
): Promise<PositionRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE id = $1 AND user_id = $2 AND book = $3`,
    [key.id, key.userId, key.book],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

export async function positionByOpenEntry(db: Queryable, entryId: number): Promise<PositionRow | null> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM positions WHERE open_entry_id = $1`, [entryId]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The positions that the given ledger entries opened or closed. */
export async function positionsOfEntries(db: Queryable, entryIds: readonly number[]): Promise<PositionRow[]> {
  if (entryIds.length === 0) return [];
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE open_entry_id = ANY($1::bigint[]) OR close_entry_id = ANY($1::bigint[])`,
    [entryIds],
  );
  return rows.map(fromRow);
}

export async function positionByRequest(
  db: Queryable,
  userId: number,
  book: Book,
  requestId: string,
): Promise<PositionRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE user_id = $1 AND book = $2 AND request_id = $3`,
    [userId, book, requestId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A customer's positions in one book, newest first, a page at a time, with the total count. */
export async function positionsOf(
  db: Queryable,
  filter: { userId: number; book: Book; status?: 'open' | 'closed'; offset: number; limit: number },
): Promise<{ rows: PositionRow[]; total: number }> {
  const params: unknown[] = [filter.userId, filter.book];
  let where = 'user_id = $1 AND book = $2';
  if (filter.status) {
    params.push(filter.status);
    where += ` AND status = $${params.length}`;
  }
  const [count] = await db.query<{ n: string }>(`SELECT count(*) AS n FROM positions WHERE ${where}`, params);
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE ${where} ORDER BY id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
    [...params, filter.offset, filter.limit],
  );
  return { rows: rows.map(fromRow), total: Number(count?.n ?? 0) };
}

/**
 * A customer's own positions (not a trading plan's) open at the market second `tick`: opened
 * before it, and not closed or closed at or after it; in id order (a statement's end, papers).
 */
export async function positionsOpenAtTick(
  db: Queryable,
  q: { userId: number; book: Book; tick: number },
): Promise<PositionRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions
     WHERE user_id = $1 AND book = $2 AND plan_id IS NULL AND open_tick < $3
       AND (close_tick IS NULL OR close_tick >= $3)
     ORDER BY id`,
    [q.userId, q.book, q.tick],
  );
  return rows.map(fromRow);
}

/** Open positions with an id above `afterId`, in id order (the trigger engine's load and sync). */
export async function openPositionsAfter(
  db: Queryable,
  afterId: number,
  limit: number,
): Promise<PositionRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE status = 'open' AND id > $1 ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map(fromRow);
}

/**
 * Changes the stops of an open position. `trailing`: undefined keeps the trailing stop; null
 * removes it; a distance equal to the present one keeps its level (the engine's moves stand), any
 * other distance starts it at `startTicks`.
 */
export async function updateStops(
  db: Queryable,
  key: { id: number; userId: number; book: Book },
  stopLossTicks: bigint,
  takeProfitTicks: bigint,
  trailing?: { distanceTicks: bigint; startTicks: bigint } | null,
): Promise<boolean> {
  const keep = trailing === undefined;
  const rows = await db.query(
    `UPDATE positions SET stop_loss_ticks = $4, take_profit_ticks = $5,
       trailing_distance_ticks = CASE WHEN $6::boolean THEN trailing_distance_ticks ELSE $7::numeric END,
       trailing_level_ticks = CASE WHEN $6::boolean THEN trailing_level_ticks
         WHEN $7::numeric IS NULL THEN NULL
         WHEN trailing_distance_ticks = $7::numeric THEN trailing_level_ticks
         ELSE $8::numeric END
     WHERE id = $1 AND user_id = $2 AND book = $3 AND status = 'open' RETURNING id`,
    [
      key.id,
      key.userId,
      key.book,
      stopLossTicks.toString(),
      takeProfitTicks.toString(),
      keep,
      trailing ? trailing.distanceTicks.toString() : null,
      trailing ? trailing.startTicks.toString() : null,
    ],
  );
  return rows.length === 1;
}

/**
 * Writes trailing levels the engine moved, in one statement. A level only tightens (GREATEST for a
 * long, LEAST for a short), and only while the position still has the distance the engine moved
 * it with (a customer who changed the distance meanwhile started a new trail).
 */
export async function saveTrailingLevels(
  db: Queryable,
  moves: readonly { id: number; distanceTicks: bigint; levelTicks: bigint }[],
): Promise<number> {
  if (moves.length === 0) return 0;
  const rows = await db.query(
    `UPDATE positions p SET trailing_level_ticks = CASE WHEN p.direction = 'long'
         THEN greatest(p.trailing_level_ticks, m.level) ELSE least(p.trailing_level_ticks, m.level) END
     FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS m(id, distance, level)
     WHERE p.id = m.id AND p.status = 'open' AND p.trailing_distance_ticks = m.distance
     RETURNING p.id`,
    [
      moves.map((m) => m.id),
      moves.map((m) => m.distanceTicks.toString()),
      moves.map((m) => m.levelTicks.toString()),
    ],
  );
  return rows.length;
}

/** The trailing stops of open positions as written (a node that starts leading the ticks catches up). */
export async function openTrailingLevels(
  db: Queryable,
): Promise<{ id: number; distanceTicks: bigint; levelTicks: bigint }[]> {
  const rows = await db.query<{ id: string; distance: string; level: string }>(
    `SELECT id, trailing_distance_ticks AS distance, trailing_level_ticks AS level FROM positions
     WHERE status = 'open' AND trailing_distance_ticks IS NOT NULL`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    distanceTicks: BigInt(r.distance),
    levelTicks: BigInt(r.level),
  }));
}

/** Sum of open margins per (book, user): must equal each margin account's balance. */
export async function openMarginByOwner(
  db: Queryable,
): Promise<{ book: Book; userId: number; marginMinor: bigint }[]> {
  const rows = await db.query<{ book: Book; user_id: string; margin: string }>(
    `SELECT book, user_id, sum(margin_minor) AS margin FROM positions WHERE status = 'open' GROUP BY book, user_id`,
  );
  return rows.map((r) => ({ book: r.book, userId: Number(r.user_id), marginMinor: BigInt(r.margin) }));
}

/** Traded volume (sum of opening notionals) in the live book, for the home page's figures. */
export async function liveTradedVolume(db: Queryable): Promise<bigint> {
  const [row] = await db.query<{ v: string | null }>(
    `SELECT sum(notional_minor) AS v FROM positions WHERE book = 'live'`,
  );
  return BigInt(row?.v ?? 0);
}

export async function lastTick(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ last_tick: string }>('SELECT last_tick FROM trading_clock WHERE id = 1');
  return row ? Number(row.last_tick) : null;
}

export async function saveLastTick(db: Queryable, tick: number): Promise<void> {
  await db.query(
    `INSERT INTO trading_clock (id, last_tick) VALUES (1, $1)
     ON CONFLICT (id) DO UPDATE SET last_tick = greatest(trading_clock.last_tick, excluded.last_tick)`,
    [tick],
  );
}

/** The positions a smart plan opened, in order (its trades). */
export async function positionsOfPlan(db: Queryable, planId: number): Promise<PositionRow[]> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} FROM positions WHERE plan_id = $1 ORDER BY id`, [
    planId,
  ]);
  return rows.map(fromRow);
}

/** The positions of many plans, in id order. */
export async function positionsOfPlans(db: Queryable, planIds: readonly number[]): Promise<PositionRow[]> {
  if (planIds.length === 0) return [];
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM positions WHERE plan_id = ANY($1::bigint[]) ORDER BY id`,
    [planIds],
  );
  return rows.map(fromRow);
}
