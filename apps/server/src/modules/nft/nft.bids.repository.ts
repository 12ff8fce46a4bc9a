import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of bids and holdings (amounts as bigint across this boundary; times from the service clock). */

type Raw = Record<string, unknown>;
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

export type BidState = 'leading' | 'outbid' | 'won' | 'lost' | 'refused';
export type BidRow = {
  id: number;
  dropId: number;
  userId: number;
  book: Book;
  amount: bigint;
  holdId: number;
  requestId: string;
  kind: 'bid' | 'buy';
  state: BidState;
  reason: 'too_low' | 'closed' | 'leading' | null;
  holdState: 'held' | 'voided' | 'posted';
  endsAfter: string;
  createdAt: string;
};

function bidOf(r: Raw): BidRow {
  return {
    id: Number(r.id),
    dropId: Number(r.drop_id),
    userId: Number(r.user_id),
    book: r.book as Book,
    amount: BigInt(r.amount as string),
    holdId: Number(r.hold_id),
    requestId: String(r.request_id),
    kind: r.kind as 'bid' | 'buy',
    state: r.state as BidState,
    reason: (r.reason ?? null) as BidRow['reason'],
    holdState: r.hold_state as BidRow['holdState'],
    endsAfter: iso(r.ends_after),
    createdAt: iso(r.created_at),
  };
}

export type NewBid = Omit<BidRow, 'id' | 'holdState'>;

/** Inserts the bids of one batch in order; answers their ids in the same order. */
export async function insertBids(tx: Queryable, bids: readonly NewBid[]): Promise<number[]> {
  if (bids.length === 0) return [];
  const col = <K extends keyof NewBid>(k: K) => bids.map((b) => b[k]);
  const rows = await tx.query<Raw>(
    `INSERT INTO nft_bids (drop_id, user_id, book, amount, hold_id, request_id, kind, state, reason,
       ends_after, created_at)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::numeric[], $5::bigint[], $6::text[],
       $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[])
     RETURNING id, hold_id`,
    [
      col('dropId'),
      col('userId'),
      col('book'),
      bids.map((b) => b.amount.toString()),
      col('holdId'),
      col('requestId'),
      col('kind'),
      col('state'),
      col('reason'),
      col('endsAfter'),
      col('createdAt'),
    ],
  );
  const byHold = new Map(rows.map((r) => [Number(r.hold_id), Number(r.id)]));
  return bids.map((b) => byHold.get(b.holdId) as number);
}

export async function setBidStates(tx: Queryable, ids: readonly number[], state: BidState): Promise<void> {
  if (ids.length > 0)
    await tx.query('UPDATE nft_bids SET state = $2 WHERE id = ANY($1::bigint[])', [ids, state]);
}

/** What became of the holds: voided or posted (the hold attachment's writer, in the ledger's transaction). */
export async function setHoldStates(
  tx: Queryable,
  holdIds: readonly number[],
  holdState: 'voided' | 'posted',
): Promise<void> {
  if (holdIds.length > 0)
    await tx.query('UPDATE nft_bids SET hold_state = $2 WHERE hold_id = ANY($1::bigint[])', [
      holdIds,
      holdState,
    ]);
}

export async function bidByHold(db: Queryable, holdId: number): Promise<BidRow | null> {
  const rows = await db.query<Raw>('SELECT * FROM nft_bids WHERE hold_id = $1', [holdId]);
  return rows[0] ? bidOf(rows[0]) : null;
}

export async function bidById(db: Queryable, id: number): Promise<BidRow | null> {
  const rows = await db.query<Raw>('SELECT * FROM nft_bids WHERE id = $1', [id]);
  return rows[0] ? bidOf(rows[0]) : null;
}

export async function bidByRequest(
  db: Queryable,
  userId: number,
  book: Book,
  requestId: string,
): Promise<BidRow | null> {
  const rows = await db.query<Raw>(
    'SELECT * FROM nft_bids WHERE user_id = $1 AND book = $2 AND request_id = $3',
    [userId, book, requestId],
  );
  return rows[0] ? bidOf(rows[0]) : null;
}

/** A drop's bids, newest first (refused ones are not bids of its history). */
export async function bidsOfDrop(db: Queryable, dropId: number, limit: number): Promise<BidRow[]> {
  const rows = await db.query<Raw>(
    `SELECT * FROM nft_bids WHERE drop_id = $1 AND state <> 'refused' ORDER BY id DESC LIMIT $2`,
    [dropId, limit],
  );
  return rows.map(bidOf);
}

/** Bids whose hold is still to be voided (outbid, lost or refused), oldest first. */
export async function bidsToVoid(db: Queryable, limit: number): Promise<BidRow[]> {
  const rows = await db.query<Raw>(
    `SELECT * FROM nft_bids WHERE hold_state = 'held' AND state IN ('outbid', 'lost', 'refused')
     ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map(bidOf);
}

/** Every bid of a customer on drops still listed, best first per drop. */
export async function openBidsOf(db: Queryable, userId: number, book: Book): Promise<BidRow[]> {
  const rows = await db.query<Raw>(
    `SELECT DISTINCT ON (b.drop_id) b.* FROM nft_bids b JOIN nft_drops d ON d.id = b.drop_id
     WHERE b.user_id = $1 AND b.book = $2 AND d.state = 'listed' AND b.state <> 'refused'
     ORDER BY b.drop_id DESC, b.amount DESC`,
    [userId, book],
  );
  return rows.map(bidOf);
}

export type HoldingRow = {
  id: number;
  dropId: number;
  userId: number;
  book: Book;
  price: bigint;
  donation: bigint;
  fee: bigint;
  entryId: number;
  logIndex: number | null;
  acquiredAt: string;
  state: 'held' | 'sending' | 'sent';
  sentTo: string | null;
  txHash: string | null;
};

function holdingOf(r: Raw): HoldingRow {
  return {
    id: Number(r.id),
    dropId: Number(r.drop_id),
    userId: Number(r.user_id),
    book: r.book as Book,
    price: BigInt(r.price as string),
    donation: BigInt(r.donation as string),
    fee: BigInt(r.fee as string),
    entryId: Number(r.entry_id),
    logIndex: r.log_index === null ? null : Number(r.log_index),
    acquiredAt: iso(r.acquired_at),
    state: r.state as HoldingRow['state'],
    sentTo: r.sent_to === null ? null : String(r.sent_to),
    txHash: r.tx_hash === null ? null : String(r.tx_hash),
  };
}

export async function holdingsOf(db: Queryable, userId: number, book: Book): Promise<HoldingRow[]> {
  const rows = await db.query<Raw>(
    'SELECT * FROM nft_holdings WHERE user_id = $1 AND book = $2 ORDER BY id DESC',
    [userId, book],
  );
  return rows.map(holdingOf);
}

export async function holdingOfDrop(db: Queryable, dropId: number): Promise<HoldingRow | null> {
  const rows = await db.query<Raw>('SELECT * FROM nft_holdings WHERE drop_id = $1', [dropId]);
  return rows[0] ? holdingOf(rows[0]) : null;
}

export async function holdingById(db: Queryable, id: number): Promise<HoldingRow | null> {
  const rows = await db.query<Raw>('SELECT * FROM nft_holdings WHERE id = $1', [id]);
  return rows[0] ? holdingOf(rows[0]) : null;
}

/** held → sending, once (a second send of the same NFT finds it sending). */
export async function markSending(
  db: Queryable,
  id: number,
  to: string,
  requestId: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE nft_holdings SET state = 'sending', sent_to = $2, send_request_id = $3
     WHERE id = $1 AND state = 'held' RETURNING id`,
    [id, to, requestId],
  );
  return rows.length === 1;
}

/** The chain refused the transfer: the NFT is held again. */
export async function unmarkSending(db: Queryable, id: number): Promise<void> {
  await db.query(
    `UPDATE nft_holdings SET state = 'held', sent_to = NULL, send_request_id = NULL WHERE id = $1 AND state = 'sending'`,
    [id],
  );
}

export async function markSent(db: Queryable, id: number, txHash: string, at: string): Promise<void> {
  await db.query(`UPDATE nft_holdings SET state = 'sent', tx_hash = $2, sent_at = $3 WHERE id = $1`, [
    id,
    txHash,
    at,
  ]);
}
