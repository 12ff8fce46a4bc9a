import type { NetworkAsset, WithdrawalState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { big, iso, isoOrNull, tableReader } from './wallet.repository.ts';

/* The SQL of money out: the withdrawal address book, withdrawals and the hot wallet's nonces. */

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

/** Every address each customer named (removed ones too): user id → address (lowercase; an EVM address is one on every EVM network). */
export async function addressesOfOwners(
  db: Queryable,
  userIds: readonly number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (userIds.length === 0) return out;
  const rows = await db.query<{ user_id: string; named: string }>(
    `SELECT DISTINCT user_id, lower(address) AS named FROM wallet_addresses
     WHERE user_id = ANY($1::bigint[])`,
    [userIds],
  );
  for (const r of rows) {
    const list = out.get(Number(r.user_id)) ?? [];
    list.push(r.named);
    out.set(Number(r.user_id), list);
  }
  return out;
}

export async function addressById(db: Queryable, id: number): Promise<AddressRow | null> {
  const rows = await db.query<RawAddress>('SELECT * FROM wallet_addresses WHERE id = $1', [id]);
  return rows[0] ? toAddress(rows[0]) : null;
}

/** Adds an address; null when the customer has it already on that network. */
export async function insertAddress(
  db: Queryable,
  a: { userId: number; network: string; address: string; label: string; ownershipSignature: string | null },
  at: string,
): Promise<AddressRow | null> {
  const rows = await db.query<RawAddress>(
    `INSERT INTO wallet_addresses (user_id, network, address, label, ownership_signature, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, network, address) WHERE removed_at IS NULL DO NOTHING RETURNING *`,
    [a.userId, a.network, a.address, a.label, a.ownershipSignature, at],
  );
  return rows[0] ? toAddress(rows[0]) : null;
}

export async function removeAddress(db: Queryable, userId: number, id: number, at: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_addresses SET removed_at = $3 WHERE id = $1 AND user_id = $2 AND removed_at IS NULL
     RETURNING id`,
    [id, userId, at],
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
  /** Earlier hashes of its nonce, replaced at a higher fee (0058), their count and the head at the last. */
  replaced: string[];
  bumps: number;
  bumpedBlock: bigint | null;
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
  replaced: string[];
  bumps: number;
  bumped_block: string | null;
  reason: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
};
const WITHDRAWAL_COLUMNS = `id, user_id, request_id, network, asset, address_id, address, amount::text, fee::text,
  receive::text, state, hold_id, nonce, raw_tx, tx_hash, sent_block::text, replaced, bumps, bumped_block::text,
  reason, created_at, completed_at`;
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
  replaced: r.replaced,
  bumps: Number(r.bumps),
  bumpedBlock: r.bumped_block === null ? null : big(r.bumped_block),
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
  at: string,
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO wallet_withdrawals (user_id, request_id, network, asset, address_id, address, amount, fee,
       receive, state, hold_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending_review', $10, $11, $11) RETURNING id`,
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
      at,
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
  /** The time of the move, on the service's clock (and of the completion, when `completed`). */
  at: string,
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
    `UPDATE wallet_withdrawals SET state = $3, updated_at = $11,
       nonce = coalesce($4, nonce), raw_tx = coalesce($5, raw_tx), tx_hash = coalesce($6, tx_hash),
       sent_block = coalesce($7::bigint, sent_block), post_entry_id = coalesce($8, post_entry_id),
       reason = coalesce($9, reason),
       completed_at = CASE WHEN $10::boolean THEN $11::timestamptz ELSE completed_at END
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
      at,
    ],
  );
  return rows.length > 0;
}

/** The hash of its nonce that was mined, when an earlier one than the newest (the newest kept in `replaced`). */
export async function setMinedWithdrawalTx(db: Queryable, id: number, txHash: string): Promise<void> {
  await db.query(
    `UPDATE wallet_withdrawals SET replaced = array_append(array_remove(replaced, $2), tx_hash), tx_hash = $2
     WHERE id = $1 AND tx_hash <> $2 AND $2 = ANY(replaced)`,
    [id, txHash],
  );
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
