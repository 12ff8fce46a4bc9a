import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { SaleState } from './nft.auction.ts';
import type { HoldingRow } from './nft.bids.repository.ts';

/**
 * SQL of charities, drops, bids and holdings. Amounts cross this boundary as bigint; the database
 * holds numeric. Every time written is the service's clock, given by the caller (never `now()`).
 */

type Raw = Record<string, unknown>;
const big = (v: unknown): bigint => BigInt(v as string);
const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(v as string));
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));
const ms = (v: unknown): number | null => (v === null || v === undefined ? null : Date.parse(iso(v)));
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export type CharityRow = { id: number; name: string; address: string };

export type DropRow = SaleState & {
  id: number;
  book: Book;
  name: string;
  description: string;
  creator: string;
  artworkUploadId: string;
  charity: CharityRow;
  charityShareBps: number;
  platformFeeBps: number;
  asset: 'USDT' | 'USDC';
  durationSeconds: number | null;
  tokenId: bigint | null;
  contractAddress: string | null;
  mintTxHash: string | null;
  mintedAt: string | null;
  leaderBidId: number | null;
  leaderHoldId: number | null;
  buyerId: number | null;
  entryId: number | null;
  settledAt: string | null;
  createdBy: string;
  createdAt: string;
};

const DROP_COLUMNS = `d.*, c.name AS charity_name, c.address AS charity_address,
  (SELECT b.user_id FROM nft_bids b WHERE b.id = d.leader_bid_id) AS leader_user_id,
  (SELECT b.hold_id FROM nft_bids b WHERE b.id = d.leader_bid_id) AS leader_hold_id`;

function dropOf(r: Raw): DropRow {
  return {
    id: Number(r.id),
    book: r.book as Book,
    name: String(r.name),
    description: String(r.description),
    creator: String(r.creator),
    artworkUploadId: String(r.artwork_upload_id),
    charity: { id: Number(r.charity_id), name: String(r.charity_name), address: String(r.charity_address) },
    charityShareBps: Number(r.charity_share_bps),
    platformFeeBps: Number(r.platform_fee_bps),
    asset: r.asset as 'USDT' | 'USDC',
    saleType: r.sale_type as 'fixed' | 'auction',
    state: r.state as SaleState['state'],
    startPrice: big(r.start_price),
    reserve: bigOrNull(r.reserve),
    minIncrementBps: Number(r.min_increment_bps),
    buyNow: bigOrNull(r.buy_now),
    durationSeconds: intOrNull(r.duration_seconds),
    startsAt: ms(r.starts_at),
    endsAt: ms(r.ends_at),
    currentBid: bigOrNull(r.current_bid),
    leaderUserId: intOrNull(r.leader_user_id),
    bidCount: Number(r.bid_count),
    tokenId: bigOrNull(r.token_id),
    contractAddress: r.contract_address === null ? null : String(r.contract_address),
    mintTxHash: r.mint_tx_hash === null ? null : String(r.mint_tx_hash),
    mintedAt: isoOrNull(r.minted_at),
    leaderBidId: intOrNull(r.leader_bid_id),
    leaderHoldId: intOrNull(r.leader_hold_id),
    buyerId: intOrNull(r.buyer_id),
    entryId: intOrNull(r.entry_id),
    settledAt: isoOrNull(r.settled_at),
    createdBy: String(r.created_by),
    createdAt: iso(r.created_at),
  };
}

export async function insertCharity(
  db: Queryable,
  row: { name: string; address: string; createdBy: string; at: string },
): Promise<CharityRow> {
  const [r] = await db.query<Raw>(
    `INSERT INTO nft_charities (name, address, created_by, created_at) VALUES ($1, $2, $3, $4)
     RETURNING id, name, address`,
    [row.name, row.address.toLowerCase(), row.createdBy, row.at],
  );
  return { id: Number(r?.id), name: String(r?.name), address: String(r?.address) };
}

export async function listCharities(db: Queryable): Promise<CharityRow[]> {
  const rows = await db.query<Raw>('SELECT id, name, address FROM nft_charities ORDER BY id');
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), address: String(r.address) }));
}

export type NewDrop = Omit<
  DropRow,
  | 'id'
  | 'charity'
  | 'state'
  | 'startsAt'
  | 'endsAt'
  | 'currentBid'
  | 'leaderUserId'
  | 'bidCount'
  | 'tokenId'
  | 'contractAddress'
  | 'mintTxHash'
  | 'mintedAt'
  | 'leaderBidId'
  | 'leaderHoldId'
  | 'buyerId'
  | 'entryId'
  | 'settledAt'
> & { charityId: number; startsAt: string | null };

export async function insertDrop(db: Queryable, d: NewDrop): Promise<number> {
  const [r] = await db.query<Raw>(
    `INSERT INTO nft_drops (book, name, description, creator, artwork_upload_id, charity_id,
       charity_share_bps, platform_fee_bps, asset, sale_type, start_price, reserve, min_increment_bps,
       buy_now, duration_seconds, starts_at, created_by, created_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING id`,
    [
      d.book,
      d.name,
      d.description,
      d.creator,
      d.artworkUploadId,
      d.charityId,
      d.charityShareBps,
      d.platformFeeBps,
      d.asset,
      d.saleType,
      d.startPrice.toString(),
      d.reserve?.toString() ?? null,
      d.minIncrementBps,
      d.buyNow?.toString() ?? null,
      d.durationSeconds,
      d.startsAt,
      d.createdBy,
      d.createdAt,
    ],
  );
  return Number(r?.id);
}

export async function dropById(db: Queryable, id: number): Promise<DropRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${DROP_COLUMNS} FROM nft_drops d JOIN nft_charities c ON c.id = d.charity_id WHERE d.id = $1`,
    [id],
  );
  return rows[0] ? dropOf(rows[0]) : null;
}

/** The drops of a batch of bids, locked for the batch's transaction (in id order: no deadlock). */
export async function lockDrops(tx: Queryable, ids: readonly number[]): Promise<Map<number, DropRow>> {
  const rows = await tx.query<Raw>(
    `SELECT ${DROP_COLUMNS} FROM nft_drops d JOIN nft_charities c ON c.id = d.charity_id
     WHERE d.id = ANY($1::bigint[]) ORDER BY d.id FOR UPDATE OF d`,
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), dropOf(r)]));
}

export type MarketFilter = {
  book: Book | null;
  state?: 'live' | 'upcoming' | 'ended' | undefined;
  saleType?: 'fixed' | 'auction' | undefined;
  before?: number | undefined;
  size: number;
  now: string;
};

/** Listed and settled drops (never drafts) of a book, newest first, filtered. Book null: every book (staff). */
export async function listDrops(db: Queryable, f: MarketFilter & { drafts?: boolean }): Promise<DropRow[]> {
  const where = [f.drafts ? 'true' : `d.state <> 'draft'`];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.book) add('d.book = ?', f.book);
  if (f.saleType) add('d.sale_type = ?', f.saleType);
  if (f.before) add('d.id < ?', f.before);
  if (f.state === 'upcoming') add(`d.state = 'listed' AND d.starts_at > ?::timestamptz`, f.now);
  if (f.state === 'live')
    add(
      `d.state = 'listed' AND d.starts_at <= ?::timestamptz AND (d.ends_at IS NULL OR d.ends_at > ?::timestamptz)`,
      f.now,
    );
  if (f.state === 'ended') add(`(d.state IN ('sold', 'unsold') OR d.ends_at <= ?::timestamptz)`, f.now);
  params.push(f.size);
  const rows = await db.query<Raw>(
    `SELECT ${DROP_COLUMNS} FROM nft_drops d JOIN nft_charities c ON c.id = d.charity_id
     WHERE ${where.join(' AND ')} ORDER BY d.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(dropOf);
}

export async function markMinted(
  db: Queryable,
  id: number,
  m: {
    tokenId: bigint;
    contractAddress: string;
    txHash: string;
    at: string;
    startsAt: string;
    endsAt: string | null;
  },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE nft_drops SET state = 'listed', token_id = $2, contract_address = $3, mint_tx_hash = $4,
       minted_at = $5, starts_at = $6, ends_at = $7
     WHERE id = $1 AND state = 'draft' RETURNING id`,
    [id, m.tokenId.toString(), m.contractAddress, m.txHash, m.at, m.startsAt, m.endsAt],
  );
  return rows.length === 1;
}

/** Listed drops past their end (or bought): the settlement runner's page, soonest end first. */
export async function dueDrops(db: Queryable, now: string, limit: number): Promise<DropRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${DROP_COLUMNS} FROM nft_drops d JOIN nft_charities c ON c.id = d.charity_id
     WHERE d.state = 'listed' AND d.ends_at <= $1 ORDER BY d.ends_at, d.id LIMIT $2`,
    [now, limit],
  );
  return rows.map(dropOf);
}

/** A drop's sale state as the bid writer leaves it. */
export async function saveSale(
  tx: Queryable,
  id: number,
  s: { currentBid: bigint | null; leaderBidId: number | null; bidCount: number; endsAt: number | null },
): Promise<void> {
  await tx.query(
    `UPDATE nft_drops SET current_bid = $2, leader_bid_id = $3, bid_count = $4, ends_at = $5 WHERE id = $1`,
    [
      id,
      s.currentBid?.toString() ?? null,
      s.leaderBidId,
      s.bidCount,
      s.endsAt === null ? null : new Date(s.endsAt).toISOString(),
    ],
  );
}

/** Closes sold drops (one batch's): their entries and buyers; answers the ids it closed (listed ones only). */
export async function closeSold(
  tx: Queryable,
  sales: readonly { id: number; entryId: number; buyerId: number }[],
  at: string,
): Promise<Set<number>> {
  const rows = await tx.query<Raw>(
    `UPDATE nft_drops d SET state = 'sold', entry_id = s.entry_id, buyer_id = s.buyer_id, settled_at = $4
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS s(id, entry_id, buyer_id)
     WHERE d.id = s.id AND d.state = 'listed' RETURNING d.id`,
    [sales.map((x) => x.id), sales.map((x) => x.entryId), sales.map((x) => x.buyerId), at],
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** Closes an unsold drop and marks its last leading bid lost; false when it was closed already. */
export async function closeUnsold(tx: Queryable, id: number, at: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE nft_drops SET state = 'unsold', settled_at = $2 WHERE id = $1 AND state = 'listed' RETURNING id`,
    [id, at],
  );
  if (rows.length === 1)
    await tx.query(`UPDATE nft_bids SET state = 'lost' WHERE drop_id = $1 AND state = 'leading'`, [id]);
  return rows.length === 1;
}

/** A holding as a sale writes it: the row but its id, state and sending, dated `at`. */
export type NewHolding = Pick<
  HoldingRow,
  'dropId' | 'userId' | 'book' | 'price' | 'donation' | 'fee' | 'entryId' | 'logIndex'
> & { at: string };

/** The holdings of one batch's sales; answers drop id → holding id. */
export async function insertHoldings(tx: Queryable, hs: readonly NewHolding[]): Promise<Map<number, number>> {
  const col = <K extends keyof NewHolding>(k: K) => hs.map((h) => h[k]);
  const text = (k: 'price' | 'donation' | 'fee') => hs.map((h) => h[k].toString());
  const rows = await tx.query<Raw>(
    `INSERT INTO nft_holdings (drop_id, user_id, book, price, donation, fee, entry_id, log_index, acquired_at)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::numeric[], $5::numeric[], $6::numeric[],
       $7::bigint[], $8::bigint[], $9::timestamptz[])
     RETURNING id, drop_id`,
    [
      col('dropId'),
      col('userId'),
      col('book'),
      text('price'),
      text('donation'),
      text('fee'),
      col('entryId'),
      col('logIndex'),
      col('at'),
    ],
  );
  return new Map(rows.map((r) => [Number(r.drop_id), Number(r.id)]));
}

/** What the charity was given in a book and asset, from the sales themselves (demo, or before the log is wired). */
export async function donatedTotal(db: Queryable, book: Book, asset: string): Promise<bigint> {
  const [r] = await db.query<Raw>(
    `SELECT coalesce(sum(h.donation), 0) AS total FROM nft_holdings h JOIN nft_drops d ON d.id = h.drop_id
     WHERE h.book = $1 AND d.asset = $2`,
    [book, asset],
  );
  return big(r?.total ?? '0');
}
