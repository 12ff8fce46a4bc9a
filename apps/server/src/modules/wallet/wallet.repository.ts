import type { AddressFormat, DepositState, NetworkAsset, WithdrawalState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/*
 * The wallet module's SQL: networks, deposit addresses, deposits, the address book, withdrawals,
 * the hot wallet's nonces and the watcher's cursor (migration 0023). Amounts are bigint minor units.
 */

const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));
const big = (v: string | number | bigint) => BigInt(v);
const num = (v: string | number | null) => (v === null ? null : Number(v));

/**
 * The reads of one table: its columns selected under a condition and mapped to rows; `queue` pages
 * rows by id after `$n` and names each row's customer (for the staff queues).
 */
function tableReader<Raw, Row>(table: string, columns: string, map: (raw: Raw) => Row) {
  const select = `SELECT ${columns} FROM ${table}`;
  const all = async (db: Queryable, where: string, params: unknown[]): Promise<Row[]> =>
    (await db.query<Raw>(`${select} WHERE ${where}`, params)).map(map);
  return {
    all,
    async one(db: Queryable, where: string, params: unknown[]): Promise<Row | null> {
      return (await all(db, where, params))[0] ?? null;
    },
    async queue(db: Queryable, where: string, params: unknown[]): Promise<(Row & { customer: string })[]> {
      const rows = await db.query<Raw & { customer: string; user_id: string }>(
        `SELECT r.*, coalesce(u.email, u.user_name) AS customer
         FROM (${select} WHERE ${where}) r JOIN users u ON u.id = r.user_id ORDER BY r.id`,
        params,
      );
      return rows.map((r) => ({ ...map(r), customer: r.customer }));
    },
  };
}

export type ChainName = 'evm' | 'bitcoin';

export type NetworkRow = {
  id: string;
  asset: NetworkAsset;
  chain: ChainName;
  name: string;
  addressFormat: AddressFormat;
  watched: boolean;
  depositMinimum: bigint;
  creditConfirmations: number;
  unlockConfirmations: number;
  blockSeconds: number;
  /** The fee rate as the database keeps it: a decimal string such as "0.005000". */
  withdrawalFeeRate: string;
  withdrawalMinimum: bigint;
  withdrawalMaximum: bigint;
  arrivalMinutes: number;
  enabled: boolean;
};

type RawNetwork = {
  id: string;
  asset: NetworkAsset;
  chain: ChainName;
  name: string;
  address_format: AddressFormat;
  watched: boolean;
  deposit_minimum: string;
  credit_confirmations: number;
  unlock_confirmations: number;
  block_seconds: number;
  withdrawal_fee_rate: string;
  withdrawal_minimum: string;
  withdrawal_maximum: string;
  arrival_minutes: number;
  enabled: boolean;
};

const NETWORK_COLUMNS = `id, asset, chain, name, address_format, watched, deposit_minimum::text,
  credit_confirmations, unlock_confirmations, block_seconds, withdrawal_fee_rate::text,
  withdrawal_minimum::text, withdrawal_maximum::text, arrival_minutes, enabled`;

const toNetwork = (r: RawNetwork): NetworkRow => ({
  id: r.id,
  asset: r.asset,
  chain: r.chain,
  name: r.name,
  addressFormat: r.address_format,
  watched: r.watched,
  depositMinimum: big(r.deposit_minimum),
  creditConfirmations: Number(r.credit_confirmations),
  unlockConfirmations: Number(r.unlock_confirmations),
  blockSeconds: Number(r.block_seconds),
  withdrawalFeeRate: r.withdrawal_fee_rate,
  withdrawalMinimum: big(r.withdrawal_minimum),
  withdrawalMaximum: big(r.withdrawal_maximum),
  arrivalMinutes: Number(r.arrival_minutes),
  enabled: r.enabled,
});

export async function listNetworks(db: Queryable): Promise<NetworkRow[]> {
  const rows = await db.query<RawNetwork>(`SELECT ${NETWORK_COLUMNS} FROM wallet_networks ORDER BY id`);
  return rows.map(toNetwork);
}

export async function updateNetwork(
  db: Queryable,
  n: Omit<NetworkRow, 'asset' | 'chain' | 'addressFormat' | 'watched'>,
): Promise<NetworkRow | null> {
  const rows = await db.query<RawNetwork>(
    `UPDATE wallet_networks SET name = $2, deposit_minimum = $3, credit_confirmations = $4,
       unlock_confirmations = $5, block_seconds = $6, withdrawal_fee_rate = $7::numeric,
       withdrawal_minimum = $8, withdrawal_maximum = $9, arrival_minutes = $10, enabled = $11,
       updated_at = now()
     WHERE id = $1 RETURNING ${NETWORK_COLUMNS}`,
    [
      n.id,
      n.name,
      n.depositMinimum.toString(),
      n.creditConfirmations,
      n.unlockConfirmations,
      n.blockSeconds,
      n.withdrawalFeeRate,
      n.withdrawalMinimum.toString(),
      n.withdrawalMaximum.toString(),
      n.arrivalMinutes,
      n.enabled,
    ],
  );
  return rows[0] ? toNetwork(rows[0]) : null;
}

/** The watched networks of a chain follow its block time (the embedded chain's interval). */
export async function setBlockSeconds(db: Queryable, chain: ChainName, seconds: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_networks SET block_seconds = $2, updated_at = now()
     WHERE chain = $1 AND watched AND block_seconds <> $2 RETURNING id`,
    [chain, seconds],
  );
  return rows.map((r) => r.id);
}

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
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_deposit_addresses (user_id, chain, path_index, address) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, chain) DO NOTHING`,
    [row.userId, row.chain, row.index, row.address],
  );
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
};

/**
 * Records deposits seen on chain, once per (transaction, log index); answers those new here. Run in
 * a transaction: each hash is claimed under its lock (`lockTransactionHash`), and a transaction an
 * approved proof has claimed already is not recorded again.
 */
export async function insertSeenDeposits(tx: Queryable, seen: SeenDeposit[]): Promise<DepositRow[]> {
  if (seen.length === 0) return [];
  // In one order, so that two watchers locking many hashes never wait for each other in a circle.
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('wallet:tx:' || h, 20231))
     FROM (SELECT DISTINCT unnest($1::text[]) AS h ORDER BY 1) hashes`,
    [seen.map((d) => d.txHash)],
  );
  const rows = await tx.query<RawDeposit>(
    `INSERT INTO wallet_deposits (user_id, network, asset, amount, source, state, tx_hash, log_index, address,
       minimum, block_number, block_hash)
     SELECT u, n, a, amt::numeric, 'chain', s, h, li, ad, m::numeric, bn::bigint, bh
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                   $8::text[], $9::text[], $10::text[], $11::text[])
         AS t(u, n, a, amt, s, h, li, ad, m, bn, bh)
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
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO wallet_deposits (user_id, network, asset, amount, source, state, tx_hash, log_index, address,
       minimum, last_six, proof_upload, clearing_hold_id)
     VALUES ($1, $2, $3, $4, 'proof', 'pending_review', $5, -2, $6, $7, $8, $9, $10) RETURNING id`,
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
    credited?: boolean;
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
       credited_at = CASE WHEN $11::boolean THEN now() ELSE credited_at END
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
      set.credited ?? false,
    ],
  );
  return rows.length > 0;
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

// The address book

export type AddressRow = {
  id: number;
  userId: number;
  network: string;
  address: string;
  label: string;
  createdAt: string;
  removedAt: string | null;
  /** The EIP-191 signature that proved the address the customer's own; null when not proved. */
  ownershipSignature: string | null;
};
type RawAddress = {
  id: string;
  user_id: string;
  network: string;
  address: string;
  label: string;
  created_at: Date | string;
  removed_at: Date | string | null;
  ownership_signature: string | null;
};
const toAddress = (r: RawAddress): AddressRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  network: r.network,
  address: r.address,
  label: r.label,
  createdAt: iso(r.created_at),
  removedAt: isoOrNull(r.removed_at),
  ownershipSignature: r.ownership_signature,
});

export async function addressesOf(db: Queryable, userId: number): Promise<AddressRow[]> {
  const rows = await db.query<RawAddress>(
    'SELECT * FROM wallet_addresses WHERE user_id = $1 AND removed_at IS NULL ORDER BY id DESC',
    [userId],
  );
  return rows.map(toAddress);
}

export async function addressById(db: Queryable, id: number): Promise<AddressRow | null> {
  const rows = await db.query<RawAddress>('SELECT * FROM wallet_addresses WHERE id = $1', [id]);
  return rows[0] ? toAddress(rows[0]) : null;
}

/** Adds an address; null when the customer has it already on that network. */
export async function insertAddress(
  db: Queryable,
  a: { userId: number; network: string; address: string; label: string; ownershipSignature: string | null },
): Promise<AddressRow | null> {
  const rows = await db.query<RawAddress>(
    `INSERT INTO wallet_addresses (user_id, network, address, label, ownership_signature)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, network, address) WHERE removed_at IS NULL DO NOTHING RETURNING *`,
    [a.userId, a.network, a.address, a.label, a.ownershipSignature],
  );
  return rows[0] ? toAddress(rows[0]) : null;
}

export async function removeAddress(db: Queryable, userId: number, id: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_addresses SET removed_at = now() WHERE id = $1 AND user_id = $2 AND removed_at IS NULL
     RETURNING id`,
    [id, userId],
  );
  return rows.length > 0;
}

// Withdrawals

export type WithdrawalRow = {
  id: number;
  userId: number;
  requestId: string;
  network: string;
  asset: NetworkAsset;
  addressId: number;
  address: string;
  amount: bigint;
  fee: bigint;
  receive: bigint;
  state: WithdrawalState;
  holdId: number;
  nonce: number | null;
  rawTx: string | null;
  txHash: string | null;
  sentBlock: bigint | null;
  reason: string | null;
  createdAt: string;
  completedAt: string | null;
};
type RawWithdrawal = {
  id: string;
  user_id: string;
  request_id: string;
  network: string;
  asset: NetworkAsset;
  address_id: string;
  address: string;
  amount: string;
  fee: string;
  receive: string;
  state: WithdrawalState;
  hold_id: string;
  nonce: number | null;
  raw_tx: string | null;
  tx_hash: string | null;
  sent_block: string | null;
  reason: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
};
const WITHDRAWAL_COLUMNS = `id, user_id, request_id, network, asset, address_id, address, amount::text, fee::text,
  receive::text, state, hold_id, nonce, raw_tx, tx_hash, sent_block::text, reason, created_at, completed_at`;
const toWithdrawal = (r: RawWithdrawal): WithdrawalRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  requestId: r.request_id,
  network: r.network,
  asset: r.asset,
  addressId: Number(r.address_id),
  address: r.address,
  amount: big(r.amount),
  fee: big(r.fee),
  receive: big(r.receive),
  state: r.state,
  holdId: Number(r.hold_id),
  nonce: r.nonce === null ? null : Number(r.nonce),
  rawTx: r.raw_tx,
  txHash: r.tx_hash,
  sentBlock: r.sent_block === null ? null : big(r.sent_block),
  reason: r.reason,
  createdAt: iso(r.created_at),
  completedAt: isoOrNull(r.completed_at),
});
const withdrawals = tableReader<RawWithdrawal, WithdrawalRow>(
  'wallet_withdrawals',
  WITHDRAWAL_COLUMNS,
  toWithdrawal,
);

export async function insertWithdrawal(
  db: Queryable,
  w: {
    userId: number;
    requestId: string;
    network: string;
    asset: NetworkAsset;
    addressId: number;
    address: string;
    amount: bigint;
    fee: bigint;
    receive: bigint;
    holdId: number;
  },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO wallet_withdrawals (user_id, request_id, network, asset, address_id, address, amount, fee,
       receive, state, hold_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending_review', $10) RETURNING id`,
    [
      w.userId,
      w.requestId,
      w.network,
      w.asset,
      w.addressId,
      w.address,
      w.amount.toString(),
      w.fee.toString(),
      w.receive.toString(),
      w.holdId,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('withdrawal not inserted');
  return Number(id);
}

export async function withdrawalById(db: Queryable, id: number, lock = false): Promise<WithdrawalRow | null> {
  return withdrawals.one(db, `id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
}

export async function withdrawalByRequest(
  db: Queryable,
  userId: number,
  requestId: string,
): Promise<WithdrawalRow | null> {
  return withdrawals.one(db, 'user_id = $1 AND request_id = $2', [userId, requestId]);
}

export async function withdrawalsOf(db: Queryable, userId: number, limit: number): Promise<WithdrawalRow[]> {
  return withdrawals.all(db, 'user_id = $1 ORDER BY id DESC LIMIT $2', [userId, limit]);
}

export async function withdrawalsIn(
  db: Queryable,
  states: WithdrawalState[],
  after: number | null,
  limit: number,
): Promise<(WithdrawalRow & { customer: string })[]> {
  return withdrawals.queue(db, 'state = ANY($1::text[]) AND id > $2 ORDER BY id LIMIT $3', [
    states,
    after ?? 0,
    limit,
  ]);
}

/** Serialises a customer's withdrawals within a transaction (the daily limit is a sum over them). */
export async function lockCustomerWithdrawals(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 20231))', [`wallet:withdraw:${userId}`]);
}

/** What a customer has asked to withdraw of an asset since `since` (everything but rejected and failed). */
export async function withdrawnSince(
  db: Queryable,
  userId: number,
  asset: string,
  since: string,
): Promise<bigint> {
  const rows = await db.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM wallet_withdrawals
     WHERE user_id = $1 AND asset = $2 AND created_at >= $3 AND state NOT IN ('rejected', 'failed')`,
    [userId, asset, since],
  );
  return big(rows[0]?.total ?? '0');
}

export async function moveWithdrawal(
  db: Queryable,
  id: number,
  from: WithdrawalState[],
  to: WithdrawalState,
  set: {
    nonce?: number;
    rawTx?: string;
    txHash?: string;
    sentBlock?: bigint;
    postEntryId?: number;
    reason?: string;
    completed?: boolean;
  } = {},
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_withdrawals SET state = $3, updated_at = now(),
       nonce = coalesce($4, nonce), raw_tx = coalesce($5, raw_tx), tx_hash = coalesce($6, tx_hash),
       sent_block = coalesce($7::bigint, sent_block), post_entry_id = coalesce($8, post_entry_id),
       reason = coalesce($9, reason),
       completed_at = CASE WHEN $10::boolean THEN now() ELSE completed_at END
     WHERE id = $1 AND state = ANY($2::text[]) RETURNING id`,
    [
      id,
      from,
      to,
      set.nonce ?? null,
      set.rawTx ?? null,
      set.txHash ?? null,
      set.sentBlock === undefined ? null : set.sentBlock.toString(),
      set.postEntryId ?? null,
      set.reason ?? null,
      set.completed ?? false,
    ],
  );
  return rows.length > 0;
}

/** Keeps a withdrawal's signed transaction before it is broadcast (the same one is sent again after a crash). */
export async function saveSigned(
  tx: Queryable,
  id: number,
  signed: { nonce: number; raw: string; hash: string },
): Promise<void> {
  await tx.query('UPDATE wallet_withdrawals SET nonce = $2, raw_tx = $3, tx_hash = $4 WHERE id = $1', [
    id,
    signed.nonce,
    signed.raw,
    signed.hash,
  ]);
}

export async function setSettleEntry(tx: Queryable, id: number, entryId: number): Promise<void> {
  await tx.query('UPDATE wallet_withdrawals SET settle_entry_id = $2 WHERE id = $1', [id, entryId]);
}

/** Completed withdrawals whose split entry is not written yet (a crash between the two). */
export async function unsettledWithdrawals(db: Queryable, limit: number): Promise<WithdrawalRow[]> {
  return withdrawals.all(db, "state = 'completed' AND settle_entry_id IS NULL ORDER BY id LIMIT $1", [limit]);
}

/** Approved withdrawals not yet confirmed, per asset (the treasury's outgoing column). */
export async function outgoingByAsset(db: Queryable): Promise<Map<string, bigint>> {
  const rows = await db.query<{ asset: string; total: string }>(
    `SELECT asset, sum(amount)::text AS total FROM wallet_withdrawals
     WHERE state IN ('approved', 'sent') GROUP BY asset`,
  );
  return new Map(rows.map((r) => [r.asset, big(r.total)]));
}

/** Takes the hot wallet's next nonce (starting from the chain's when the table has none). */
export async function takeNonce(
  tx: Queryable,
  chainId: number,
  address: string,
  chainNext: number,
): Promise<number> {
  const rows = await tx.query<{ next_nonce: number }>(
    `INSERT INTO wallet_hot_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3 + 1)
     ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = greatest(wallet_hot_nonces.next_nonce, $3) + 1
     RETURNING next_nonce`,
    [chainId, address, chainNext],
  );
  const next = rows[0]?.next_nonce;
  if (next === undefined) throw new Error('nonce not taken');
  return Number(next) - 1;
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
