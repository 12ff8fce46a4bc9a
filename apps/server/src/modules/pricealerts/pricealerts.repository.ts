import type { PriceAlertKind, PriceAlertState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/**
 * SQL of price alerts and push subscriptions. Levels and prices are ticks (bigint) at the
 * instrument's decimals; every time written is the service's clock, given by the caller.
 */
export type AlertRow = {
  id: number;
  userId: number;
  instrumentId: number;
  kind: PriceAlertKind;
  levelTicks: bigint | null;
  priceDecimals: number;
  pctBp: number | null;
  repeat: boolean;
  state: PriceAlertState;
  armed: boolean;
  fireCount: number;
  changedTick: number;
  firedAt: string | null;
  firedPrice: bigint | null;
  createdAt: string;
};

export type NewAlert = Pick<
  AlertRow,
  | 'userId'
  | 'instrumentId'
  | 'kind'
  | 'levelTicks'
  | 'priceDecimals'
  | 'pctBp'
  | 'repeat'
  | 'armed'
  | 'changedTick'
> & { at: string };

export type PushRow = { id: number; userId: number; endpoint: string; p256dh: string; auth: string };

const COLUMNS = `id, user_id, instrument_id, kind, level_ticks::text, price_decimals, pct_bp, repeat, state,
  armed, fire_count, changed_tick, fired_at, fired_price::text, created_at`;

const toRow = (r: Record<string, unknown>): AlertRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  instrumentId: Number(r.instrument_id),
  kind: r.kind as PriceAlertKind,
  levelTicks: r.level_ticks === null ? null : BigInt(r.level_ticks as string),
  priceDecimals: Number(r.price_decimals),
  pctBp: r.pct_bp === null ? null : Number(r.pct_bp),
  repeat: r.repeat === true,
  state: r.state as PriceAlertState,
  armed: r.armed === true,
  fireCount: Number(r.fire_count),
  changedTick: Number(r.changed_tick),
  firedAt: r.fired_at === null ? null : new Date(r.fired_at as string).toISOString(),
  firedPrice: r.fired_price === null ? null : BigInt(r.fired_price as string),
  createdAt: new Date(r.created_at as string).toISOString(),
});

/** Serialises one customer's creations (the cap is counted, then the row written, in one transaction). */
export async function lockCustomerAlerts(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 20260))', [`pricealerts:${userId}`]);
}

export async function countActive(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM price_alerts WHERE user_id = $1 AND state = 'active'`,
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function insertAlert(db: Queryable, a: NewAlert): Promise<AlertRow> {
  const rows = await db.query(
    `INSERT INTO price_alerts (user_id, instrument_id, kind, level_ticks, price_decimals, pct_bp, repeat, armed,
       changed_tick, created_at)
     VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [
      a.userId,
      a.instrumentId,
      a.kind,
      a.levelTicks?.toString() ?? null,
      a.priceDecimals,
      a.pctBp,
      a.repeat,
      a.armed,
      a.changedTick,
      a.at,
    ],
  );
  return toRow(rows[0] as Record<string, unknown>);
}

export async function alertsOf(db: Queryable, userId: number, limit: number): Promise<AlertRow[]> {
  const rows = await db.query(
    `SELECT ${COLUMNS} FROM price_alerts WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map(toRow);
}

export async function findAlert(db: Queryable, id: number): Promise<AlertRow | null> {
  const rows = await db.query(`SELECT ${COLUMNS} FROM price_alerts WHERE id = $1`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Active alerts with an id above `afterId`, oldest first (the index's load and sync). */
export async function activeAlertsAfter(db: Queryable, afterId: number, limit: number): Promise<AlertRow[]> {
  const rows = await db.query(
    `SELECT ${COLUMNS} FROM price_alerts WHERE state = 'active' AND id > $1 ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map(toRow);
}

/** Cancels the customer's own active alert; another's, or one not active, changes nothing (false). */
export async function cancelAlert(db: Queryable, userId: number, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE price_alerts SET state = 'cancelled' WHERE id = $1 AND user_id = $2 AND state = 'active' RETURNING id`,
    [id, userId],
  );
  return rows.length > 0;
}

/**
 * Claims a firing at tick t: only an active, armed alert whose last change was at an earlier tick.
 * A one-off alert ends `fired`; a repeating one stays active, disarmed until the price is back.
 */
export async function claimFiring(
  db: Queryable,
  id: number,
  t: number,
  price: bigint,
  at: string,
): Promise<AlertRow | null> {
  const rows = await db.query(
    `UPDATE price_alerts
        SET armed = false, changed_tick = $2, fire_count = fire_count + 1, fired_at = $4, fired_price = $3::numeric,
            state = CASE WHEN repeat THEN 'active' ELSE 'fired' END
      WHERE id = $1 AND state = 'active' AND armed AND changed_tick < $2
      RETURNING ${COLUMNS}`,
    [id, t, price.toString(), at],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Re-arms a repeating alert at tick t (the price went back across its level): once, by a later tick. */
export async function claimRearm(db: Queryable, id: number, t: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE price_alerts SET armed = true, changed_tick = $2
      WHERE id = $1 AND state = 'active' AND NOT armed AND changed_tick < $2 RETURNING id`,
    [id, t],
  );
  return rows.length > 0;
}

const toPush = (r: Record<string, unknown>): PushRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  endpoint: r.endpoint as string,
  p256dh: r.p256dh as string,
  auth: r.auth as string,
});

/** A browser's subscription, now the customer's (an endpoint moves with whoever subscribes it last). */
export async function upsertPush(db: Queryable, s: Omit<PushRow, 'id'> & { at: string }): Promise<void> {
  await db.query(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = $1, p256dh = $3, auth = $4, created_at = $5`,
    [s.userId, s.endpoint, s.p256dh, s.auth, s.at],
  );
}

export async function deletePush(db: Queryable, userId: number, endpoint: string): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [userId, endpoint]);
}

export async function deletePushById(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}

export async function pushesOf(db: Queryable, userId: number): Promise<PushRow[]> {
  const rows = await db.query('SELECT * FROM push_subscriptions WHERE user_id = $1 ORDER BY id', [userId]);
  return rows.map(toPush);
}
