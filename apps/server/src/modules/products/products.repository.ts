import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';

/** SQL of the products module: the settlement runner's record of days (`settlement_days`). */

export type SettlementDayRow = {
  status: 'settled' | 'unfunded';
  payments: number;
  paidMinor: bigint;
  alertId: number | null;
};

export type DayKey = { product: string; book: Book; day: string };

export async function settlementDay(db: Queryable, key: DayKey): Promise<SettlementDayRow | null> {
  const rows = await db.query<{
    status: 'settled' | 'unfunded';
    payments: number;
    paid_minor: string;
    alert_id: string | null;
  }>(
    'SELECT status, payments, paid_minor, alert_id FROM settlement_days WHERE product = $1 AND book = $2 AND day = $3',
    [key.product, key.book, key.day],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    status: row.status,
    payments: row.payments,
    paidMinor: BigInt(row.paid_minor),
    alertId: row.alert_id === null ? null : Number(row.alert_id),
  };
}

/** Records a day as settled with what it paid (a day first unfunded keeps its alert id). */
export async function markDaySettled(
  db: Queryable,
  key: DayKey & { payments: number; paidMinor: bigint },
): Promise<void> {
  await db.query(
    `INSERT INTO settlement_days (product, book, day, status, payments, paid_minor)
     VALUES ($1, $2, $3, 'settled', $4, $5)
     ON CONFLICT (product, book, day) DO UPDATE
       SET status = 'settled', payments = EXCLUDED.payments, paid_minor = EXCLUDED.paid_minor, updated_at = now()`,
    [key.product, key.book, key.day, key.payments, key.paidMinor.toString()],
  );
}

/** Records a day its source cannot cover; true only for the caller that recorded it first. */
export async function insertUnfundedDay(tx: Queryable, key: DayKey): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO settlement_days (product, book, day, status) VALUES ($1, $2, $3, 'unfunded')
     ON CONFLICT (product, book, day) DO NOTHING RETURNING day`,
    [key.product, key.book, key.day],
  );
  return rows.length > 0;
}

export async function setDayAlert(tx: Queryable, key: DayKey, alertId: number): Promise<void> {
  await tx.query(
    'UPDATE settlement_days SET alert_id = $4, updated_at = now() WHERE product = $1 AND book = $2 AND day = $3',
    [key.product, key.book, key.day, alertId],
  );
}

/**
 * The first day a product still owes in a book: the earliest unfunded day, else the day after
 * the last settled one; null before its first settlement.
 */
export async function firstOwedDay(db: Queryable, product: string, book: Book): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    `SELECT least(
       (SELECT min(day) FROM settlement_days WHERE product = $1 AND book = $2 AND status = 'unfunded'),
       (SELECT max(day) + 1 FROM settlement_days WHERE product = $1 AND book = $2 AND status = 'settled')
     )::text AS day`,
    [product, book],
  );
  return rows[0]?.day ?? null;
}

/** The first day a product could not pay in a book and has not paid since; null when it owes no such day. */
export async function firstUnfundedDay(db: Queryable, product: string, book: Book): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    `SELECT min(day)::text AS day FROM settlement_days WHERE product = $1 AND book = $2 AND status = 'unfunded'`,
    [product, book],
  );
  return rows[0]?.day ?? null;
}

/**
 * Claims a quote for a request (`quote_claims`): the request key that holds it, this one when it
 * was free. The insert decides between two commits racing for one quote; the read after it is a
 * statement of its own, so it sees a rival's claim that the insert waited for.
 */
export async function claimQuote(
  db: Queryable,
  quote: string,
  requestKey: string,
  expiresAtSecond: number,
): Promise<string> {
  const inserted = await db.query<{ request_key: string }>(
    `INSERT INTO quote_claims (quote, request_key, expires_at) VALUES ($1, $2, to_timestamp($3))
     ON CONFLICT (quote) DO NOTHING RETURNING request_key`,
    [quote, requestKey, expiresAtSecond],
  );
  const row =
    inserted[0] ??
    (
      await db.query<{ request_key: string }>('SELECT request_key FROM quote_claims WHERE quote = $1', [
        quote,
      ])
    )[0];
  if (!row) throw new Error('quote claim neither written nor found');
  return row.request_key;
}

/** Gives a quote back: the claim of a commit that was refused having posted nothing. */
export async function releaseQuote(db: Queryable, quote: string, requestKey: string): Promise<void> {
  await db.query('DELETE FROM quote_claims WHERE quote = $1 AND request_key = $2', [quote, requestKey]);
}

/** Forgets the claims of quotes expired before `beforeSecond` (an expired quote never commits). */
export async function pruneQuoteClaims(db: Queryable, beforeSecond: number): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `WITH gone AS (DELETE FROM quote_claims WHERE expires_at < to_timestamp($1) RETURNING 1)
     SELECT count(*)::text AS n FROM gone`,
    [beforeSecond],
  );
  return Number(rows[0]?.n ?? 0);
}
