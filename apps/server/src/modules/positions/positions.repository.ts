import type { CloseReason, Direction } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';
import type { PositionRow } from '../products/ports.ts';

/** SQL of positions. Ticks and amounts cross this boundary as bigint; the database holds numeric. */
export type { PositionRow };

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
};

const COLUMNS = `id, user_id, book, instrument_id, code, direction, centilots, lot_size, leverage,
  price_decimals, open_ticks, stop_loss_ticks, take_profit_ticks, liquidation_ticks, conversion_num,
  conversion_den, notional_minor, margin_minor, fee_minor, fee_ppm, open_tick, live_tick, expires_tick,
  language, request_id, open_entry_id, opened_at, status, close_reason, close_ticks, close_tick,
  profit_minor, absorbed_minor, close_entry_id, closed_at, plan_id`;

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
       language, request_id, open_entry_id, plan_id)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::bigint[],
       $7::numeric[], $8::int[], $9::smallint[], $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[],
       $14::numeric[], $15::numeric[], $16::numeric[], $17::numeric[], $18::numeric[], $19::int[], $20::bigint[],
       $21::bigint[], $22::bigint[], $23::text[], $24::text[], $25::bigint[], $26::bigint[])
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
       close_entry_id = c.entry_id, closed_at = now()
     FROM unnest($1::bigint[], $2::text[], $3::numeric[], $4::bigint[], $5::numeric[], $6::numeric[], $7::bigint[])
       AS c(id, reason, close_ticks, close_tick, profit, absorbed, entry_id)
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

export async function updateStops(
  db: Queryable,
  key: { id: number; userId: number; book: Book },
  stopLossTicks: bigint,
  takeProfitTicks: bigint,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE positions SET stop_loss_ticks = $4, take_profit_ticks = $5
     WHERE id = $1 AND user_id = $2 AND book = $3 AND status = 'open' RETURNING id`,
    [key.id, key.userId, key.book, stopLossTicks.toString(), takeProfitTicks.toString()],
  );
  return rows.length === 1;
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
