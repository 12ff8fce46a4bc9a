import type { Queryable } from '../../platform/db.ts';
import type { MarketClass } from './feed.ts';

export type InstrumentRow = {
  id: number;
  code: string;
  class: MarketClass;
  name: string;
  names: Record<string, string>;
  refPrice: string;
  decimals: number;
};

/**
 * Adds catalogue instruments that are missing; existing rows (and their ids) are kept, with their
 * reference price brought up to the catalogue's (the feed's levels come from the catalogue).
 */
export async function insertMissingInstruments(
  db: Queryable,
  rows: readonly {
    code: string;
    class: MarketClass;
    name: string;
    names: string;
    refPrice: string;
    decimals: number;
  }[],
): Promise<void> {
  await db.query(
    `INSERT INTO instruments (code, class, name, names, ref_price, decimals)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::smallint[])
     ON CONFLICT (code) DO UPDATE SET ref_price = EXCLUDED.ref_price
       WHERE instruments.ref_price IS DISTINCT FROM EXCLUDED.ref_price`,
    [
      rows.map((r) => r.code),
      rows.map((r) => r.class),
      rows.map((r) => r.name),
      rows.map((r) => r.names),
      rows.map((r) => r.refPrice),
      rows.map((r) => r.decimals),
    ],
  );
}

export async function listedInstruments(db: Queryable): Promise<InstrumentRow[]> {
  const rows = await db.query<{
    id: number;
    code: string;
    class: MarketClass;
    name: string;
    names: string;
    ref_price: string;
    decimals: number;
  }>('SELECT id, code, class, name, names, ref_price, decimals FROM instruments WHERE listed ORDER BY id');
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    class: r.class,
    name: r.name,
    names: JSON.parse(r.names) as Record<string, string>,
    refPrice: r.ref_price,
    decimals: r.decimals,
  }));
}

export async function watchlistOf(db: Queryable, userId: number): Promise<number[]> {
  const rows = await db.query<{ instrument_id: number }>(
    'SELECT instrument_id FROM watchlist_items WHERE user_id = $1 ORDER BY added_at, instrument_id',
    [userId],
  );
  return rows.map((r) => r.instrument_id);
}

export async function addToWatchlist(db: Queryable, userId: number, instrumentId: number): Promise<void> {
  await db.query(
    'INSERT INTO watchlist_items (user_id, instrument_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [userId, instrumentId],
  );
}

export async function removeFromWatchlist(
  db: Queryable,
  userId: number,
  instrumentId: number,
): Promise<void> {
  await db.query('DELETE FROM watchlist_items WHERE user_id = $1 AND instrument_id = $2', [
    userId,
    instrumentId,
  ]);
}
