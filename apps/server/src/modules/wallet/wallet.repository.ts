import type { AddressFormat, NetworkAsset } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/*
 * The wallet module's SQL (migration 0023), one file per use: the networks and the readers the
 * others share here; deposit addresses, deposits and the watcher's cursor in
 * `wallet.deposits.repository.ts`; the address book, withdrawals and the hot wallet's nonces in
 * `wallet.withdrawals.repository.ts`. Amounts are bigint minor units. Every time written (`at`) is
 * the service's clock, given by the caller: never the database's `now()` or a column default.
 */

export const iso = (v: Date | string) => new Date(v).toISOString();
export const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));
export const big = (v: string | number | bigint) => BigInt(v);
export const num = (v: string | number | null) => (v === null ? null : Number(v));

/**
 * The reads of one table: its columns selected under a condition and mapped to rows; `queue` pages
 * rows by id after `$n` and names each row's customer (for the staff queues).
 */
export function tableReader<Raw, Row>(table: string, columns: string, map: (raw: Raw) => Row) {
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
  at: string,
): Promise<NetworkRow | null> {
  const rows = await db.query<RawNetwork>(
    `UPDATE wallet_networks SET name = $2, deposit_minimum = $3, credit_confirmations = $4,
       unlock_confirmations = $5, block_seconds = $6, withdrawal_fee_rate = $7::numeric,
       withdrawal_minimum = $8, withdrawal_maximum = $9, arrival_minutes = $10, enabled = $11,
       updated_at = $12
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
      at,
    ],
  );
  return rows[0] ? toNetwork(rows[0]) : null;
}

/** The watched networks of a chain follow its block time (the embedded chain's interval). */
export async function setBlockSeconds(
  db: Queryable,
  chain: ChainName,
  seconds: number,
  at: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE wallet_networks SET block_seconds = $2, updated_at = $3
     WHERE chain = $1 AND watched AND block_seconds <> $2 RETURNING id`,
    [chain, seconds, at],
  );
  return rows.map((r) => r.id);
}
