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
