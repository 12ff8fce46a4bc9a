import type { DepositState, NetworkAsset } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { big, type ChainName, iso, isoOrNull, num, tableReader } from './wallet.repository.ts';

/* The SQL of money in: deposit addresses, deposits (chain and proof) and the watcher's cursor. */

// Deposit addresses

export async function depositAddressOf(
  db: Queryable,
  userId: number,
  chain: ChainName,
): Promise<string | null> {
  const rows = await db.query<{ address: string }>(
    'SELECT address FROM wallet_deposit_addresses WHERE user_id = $1 AND chain = $2',
    [userId, chain],
  );
  return rows[0]?.address ?? null;
}

/** Keeps a derived address (the same derivation answers the same address: a race inserts it once). */
export async function saveDepositAddress(
  db: Queryable,
  row: { userId: number; chain: ChainName; index: number; address: string },
  at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_deposit_addresses (user_id, chain, path_index, address, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, chain) DO NOTHING`,
    [row.userId, row.chain, row.index, row.address, at],
  );
}

/**
 * The customers' deposit addresses of a chain that ever received a deposit (seen on chain or
 * declared): the ones that may hold something, as the treasury reads them.
 */
export async function fundedDepositAddresses(db: Queryable, chain: ChainName): Promise<string[]> {
  const rows = await db.query<{ address: string }>(
    `SELECT a.address FROM wallet_deposit_addresses a
      WHERE a.chain = $1
        AND EXISTS (SELECT 1 FROM wallet_deposits d WHERE d.user_id = a.user_id AND lower(d.address) = a.address)
      ORDER BY a.address`,
    [chain],
  );
  return rows.map((r) => r.address);
}

/** Which customers own these addresses of a chain. */
export async function ownersOf(
  db: Queryable,
  chain: ChainName,
  addresses: string[],
): Promise<Map<string, number>> {
  if (addresses.length === 0) return new Map();
  const rows = await db.query<{ address: string; user_id: string }>(
    'SELECT address, user_id FROM wallet_deposit_addresses WHERE chain = $1 AND address = ANY($2::text[])',
    [chain, addresses],
  );
  return new Map(rows.map((r) => [r.address, Number(r.user_id)]));
}

// Deposits

export type DepositRow = {
  id: number;
  userId: number;
  network: string;
  asset: NetworkAsset;
  amount: bigint;
  source: 'chain' | 'proof';
  state: DepositState;
  txHash: string;
  logIndex: number;
  address: string;
  minimum: bigint;
  blockNumber: bigint | null;
  blockHash: string | null;
  lastSix: string | null;
  proofUpload: string | null;
  clearingHoldId: number | null;
  creditEntryId: number | null;
  lockHoldId: number | null;
  reason: string | null;
  createdAt: string;
  creditedAt: string | null;
};

type RawDeposit = {
  id: string;
  user_id: string;
  network: string;
  asset: NetworkAsset;
  amount: string;
  source: 'chain' | 'proof';
  state: DepositState;
  tx_hash: string;
  log_index: number;
  address: string;
  minimum: string;
  block_number: string | null;
  block_hash: string | null;
  last_six: string | null;
  proof_upload: string | null;
  clearing_hold_id: string | null;
  credit_entry_id: string | null;
  lock_hold_id: string | null;
  reason: string | null;
  created_at: Date | string;
  credited_at: Date | string | null;
};

const DEPOSIT_COLUMNS = `id, user_id, network, asset, amount::text, source, state, tx_hash, log_index, address,
  minimum::text, block_number::text, block_hash, last_six, proof_upload, clearing_hold_id, credit_entry_id,
  lock_hold_id, reason, created_at, credited_at`;

const toDeposit = (r: RawDeposit): DepositRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  network: r.network,
  asset: r.asset,
  amount: big(r.amount),
  source: r.source,
  state: r.state,
  txHash: r.tx_hash,
  logIndex: Number(r.log_index),
  address: r.address,
  minimum: big(r.minimum),
  blockNumber: r.block_number === null ? null : big(r.block_number),
  blockHash: r.block_hash,
  lastSix: r.last_six,
  proofUpload: r.proof_upload,
  clearingHoldId: num(r.clearing_hold_id),
  creditEntryId: num(r.credit_entry_id),
  lockHoldId: num(r.lock_hold_id),
  reason: r.reason,
  createdAt: iso(r.created_at),
  creditedAt: isoOrNull(r.credited_at),
});
const deposits = tableReader<RawDeposit, DepositRow>('wallet_deposits', DEPOSIT_COLUMNS, toDeposit);

export type SeenDeposit = {
  userId: number;
  network: string;
  asset: NetworkAsset;
  amount: bigint;
  state: 'confirming' | 'below_minimum';
  txHash: string;
  logIndex: number;
  address: string;
  minimum: bigint;
  blockNumber: bigint;
  blockHash: string;
  /** The transfer's sender (lowercase). */
  sender: string;
};

/**
 * Records deposits seen on chain, once per (transaction, log index); answers those new here. Run in
 * a transaction: each hash is claimed under its lock (`lockTransactionHash`), and a transaction an
 * approved proof has claimed already is not recorded again.
 */
export async function insertSeenDeposits(
  tx: Queryable,
  seen: SeenDeposit[],
  at: string,
): Promise<DepositRow[]> {
  if (seen.length === 0) return [];
  // In one order, so that two watchers locking many hashes never wait for each other in a circle.
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('wallet:tx:' || h, 20231))
     FROM (SELECT DISTINCT unnest($1::text[]) AS h ORDER BY 1) hashes`,
    [seen.map((d) => d.txHash)],
  );
  const rows = await tx.query<RawDeposit>(
    `INSERT INTO wallet_deposits (user_id, network, asset, amount, source, state, tx_hash, log_index, address,
       minimum, block_number, block_hash, sender, created_at)
     SELECT u, n, a, amt::numeric, 'chain', s, h, li, ad, m::numeric, bn::bigint, bh, fr, $12::timestamptz
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                   $8::text[], $9::text[], $10::text[], $11::text[], $13::text[])
         AS t(u, n, a, amt, s, h, li, ad, m, bn, bh, fr)
       WHERE NOT EXISTS (SELECT 1 FROM wallet_deposits p WHERE p.tx_hash = t.h AND p.source = 'proof'
                           AND p.state IN ('confirming', 'credited', 'available'))
     ON CONFLICT (tx_hash, log_index) WHERE source = 'chain' DO NOTHING
     RETURNING ${DEPOSIT_COLUMNS}`,
    [
      seen.map((d) => d.userId),
      seen.map((d) => d.network),
      seen.map((d) => d.asset),
      seen.map((d) => d.amount.toString()),
      seen.map((d) => d.state),
      seen.map((d) => d.txHash),
      seen.map((d) => d.logIndex),
      seen.map((d) => d.address),
      seen.map((d) => d.minimum.toString()),
      seen.map((d) => d.blockNumber.toString()),
      seen.map((d) => d.blockHash),
      at,
      seen.map((d) => d.sender.toLowerCase()),
    ],
  );
  return rows.map(toDeposit);
}

/**
 * Deposits still moving on chain (confirming, or credited below the unlock depth), oldest first:
 * seen by the watcher, or declared with a proof, checked on chain and approved.
 */
export async function openChainDeposits(db: Queryable, limit: number): Promise<DepositRow[]> {
  return deposits.all(
    db,
    "state IN ('confirming', 'credited') AND block_number IS NOT NULL ORDER BY id LIMIT $1",
    [limit],
  );
}

/** The block a pending proof's transaction was found in on chain (kept as its approval starts). */
export async function setProofBlock(
  db: Queryable,
  id: number,
  blockNumber: bigint,
  blockHash: string,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_deposits SET block_number = $2, block_hash = $3
     WHERE id = $1 AND source = 'proof' AND state = 'pending_review' RETURNING id`,
    [id, blockNumber.toString(), blockHash],
  );
  return rows.length > 0;
}

/** Pending proofs whose transaction the watcher has credited meanwhile, with that deposit's id. */
export async function proofsCreditedOnChain(
  db: Queryable,
  limit: number,
): Promise<(DepositRow & { chainDepositId: number })[]> {
  const rows = await db.query<RawDeposit & { chain_deposit_id: string }>(
    `SELECT * FROM (
       SELECT ${DEPOSIT_COLUMNS},
         (SELECT c.id FROM wallet_deposits c WHERE c.tx_hash = p.tx_hash AND c.source = 'chain'
            AND c.state IN ('credited', 'available') ORDER BY c.id LIMIT 1) AS chain_deposit_id
       FROM wallet_deposits p WHERE state = 'pending_review' AND source = 'proof') pending
     WHERE chain_deposit_id IS NOT NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ ...toDeposit(r), chainDepositId: Number(r.chain_deposit_id) }));
}

export async function depositById(db: Queryable, id: number, lock = false): Promise<DepositRow | null> {
  return deposits.one(db, `id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
}

/** The declared deposit a clearing hold was placed for (its one row). */
export async function depositByClearingHold(db: Queryable, holdId: number): Promise<DepositRow | null> {
  return deposits.one(db, 'clearing_hold_id = $1', [holdId]);
}

export async function depositsOf(db: Queryable, userId: number, limit: number): Promise<DepositRow[]> {
  return deposits.all(db, 'user_id = $1 ORDER BY id DESC LIMIT $2', [userId, limit]);
}

export async function pendingProofs(
  db: Queryable,
  after: number | null,
  limit: number,
): Promise<(DepositRow & { customer: string })[]> {
  return deposits.queue(db, "state = 'pending_review' AND id > $1 ORDER BY id LIMIT $2", [after ?? 0, limit]);
}

/** Serialises everything that claims one transaction hash (the watcher and a proof) in this transaction. */
export async function lockTransactionHash(tx: Queryable, txHash: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 20231))', [`wallet:tx:${txHash}`]);
}

/** Is this transaction already a deposit (seen on chain, or declared and not rejected), other than `except`? */
export async function transactionClaimed(
  db: Queryable,
  txHash: string,
  except: number | null,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM wallet_deposits
     WHERE tx_hash = $1 AND id <> $2 AND state NOT IN ('rejected', 'reversed') LIMIT 1`,
    [txHash, except ?? 0],
  );
  return rows.length > 0;
}

export async function insertProofDeposit(
  db: Queryable,
  d: {
    userId: number;
    network: string;
    asset: NetworkAsset;
    amount: bigint;
    txHash: string;
    address: string;
    minimum: bigint;
    lastSix: string;
    proofUpload: string;
    clearingHoldId: number;
  },
  at: string,
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO wallet_deposits (user_id, network, asset, amount, source, state, tx_hash, log_index, address,
       minimum, last_six, proof_upload, clearing_hold_id, created_at)
     VALUES ($1, $2, $3, $4, 'proof', 'pending_review', $5, -2, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      d.userId,
      d.network,
      d.asset,
      d.amount.toString(),
      d.txHash,
      d.address,
      d.minimum.toString(),
      d.lastSix,
      d.proofUpload,
      d.clearingHoldId,
      at,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('deposit not inserted');
  return Number(id);
}

/** Moves a deposit from one state to the next; false when it was not in `from` (someone else moved it). */
export async function moveDeposit(
  db: Queryable,
  id: number,
  from: DepositState[],
  to: DepositState,
  set: {
    creditEntryId?: number;
    lockHoldId?: number;
    reversalEntryId?: number;
    blockNumber?: bigint;
    blockHash?: string;
    reason?: string | null;
    /** Credited now: the time, on the service's clock. */
    creditedAt?: string;
  } = {},
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_deposits SET state = $3,
       credit_entry_id = coalesce($4, credit_entry_id),
       lock_hold_id = coalesce($5, lock_hold_id),
       reversal_entry_id = coalesce($6, reversal_entry_id),
       block_number = coalesce($7::bigint, block_number),
       block_hash = coalesce($8, block_hash),
       reason = CASE WHEN $9::boolean THEN $10 ELSE reason END,
       credited_at = coalesce($11::timestamptz, credited_at)
     WHERE id = $1 AND state = ANY($2::text[]) RETURNING id`,
    [
      id,
      from,
      to,
      set.creditEntryId ?? null,
      set.lockHoldId ?? null,
      set.reversalEntryId ?? null,
      set.blockNumber === undefined ? null : set.blockNumber.toString(),
      set.blockHash ?? null,
      set.reason !== undefined,
      set.reason ?? null,
      set.creditedAt ?? null,
    ],
  );
  return rows.length > 0;
}

/**
 * Confirming deposits credited, in one statement: each with its credit entry and the lock its entry
 * placed (null: locked later), at the service's time. Answers the ids moved.
 */
export async function creditDeposits(
  tx: Queryable,
  rows: readonly { id: number; creditEntryId: number; lockHoldId: number | null }[],
  at: string,
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const moved = await tx.query<{ id: string }>(
    `UPDATE wallet_deposits d SET state = 'credited', credit_entry_id = c.entry_id,
       lock_hold_id = coalesce(c.hold_id, d.lock_hold_id), credited_at = $4::timestamptz
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS c(id, entry_id, hold_id)
     WHERE d.id = c.id AND d.state = 'confirming' RETURNING d.id`,
    [rows.map((r) => r.id), rows.map((r) => r.creditEntryId), rows.map((r) => r.lockHoldId), at],
  );
  return new Set(moved.map((r) => Number(r.id)));
}

/** The hold that locks a credited deposit until the unlock depth (whatever its state: the credit may follow in the same batch). */
export async function setDepositLock(db: Queryable, id: number, holdId: number): Promise<void> {
  await db.query('UPDATE wallet_deposits SET lock_hold_id = $2 WHERE id = $1 AND lock_hold_id IS NULL', [
    id,
    holdId,
  ]);
}

/** A deposit re-included in another block (same transaction): its new place. */
export async function moveDepositBlock(
  db: Queryable,
  id: number,
  blockNumber: bigint,
  blockHash: string,
): Promise<void> {
  await db.query('UPDATE wallet_deposits SET block_number = $2, block_hash = $3 WHERE id = $1', [
    id,
    blockNumber.toString(),
    blockHash,
  ]);
}

/**
 * Per customer: the senders of their deposits seen on chain (any state) and their own deposit
 * addresses, in lowercase (invites' same-address rule).
 */
export async function depositAddressesOfOwners(
  db: Queryable,
  userIds: readonly number[],
): Promise<Map<number, { sources: string[]; own: string[] }>> {
  const out = new Map<number, { sources: string[]; own: string[] }>();
  if (userIds.length === 0) return out;
  const rows = await db.query<{ user_id: string; sender: boolean; address: string }>(
    `SELECT DISTINCT user_id, true AS sender, sender AS address FROM wallet_deposits
       WHERE user_id = ANY($1::bigint[]) AND sender IS NOT NULL
     UNION
     SELECT user_id, false, lower(address) FROM wallet_deposit_addresses WHERE user_id = ANY($1::bigint[])`,
    [userIds],
  );
  for (const r of rows) {
    const of = out.get(Number(r.user_id)) ?? { sources: [], own: [] };
    (r.sender ? of.sources : of.own).push(r.address);
    out.set(Number(r.user_id), of);
  }
  return out;
}

// The watcher's cursor

export async function cursorOf(
  db: Queryable,
  chainId: number,
): Promise<{ number: bigint; hash: string } | null> {
  const rows = await db.query<{ block_number: string; block_hash: string }>(
    'SELECT block_number::text, block_hash FROM wallet_chain_cursor WHERE chain_id = $1',
    [chainId],
  );
  const row = rows[0];
  return row ? { number: big(row.block_number), hash: row.block_hash } : null;
}

export async function saveCursor(
  db: Queryable,
  chainId: number,
  number: bigint,
  hash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_chain_cursor (chain_id, block_number, block_hash) VALUES ($1, $2, $3)
     ON CONFLICT (chain_id) DO UPDATE SET block_number = $2, block_hash = $3`,
    [chainId, number.toString(), hash],
  );
}
