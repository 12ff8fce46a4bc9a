import { type Book, Code, type Deposit } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import {
  type DepositRow,
  depositAddressOf,
  depositById,
  depositsOf,
  saveDepositAddress,
} from './wallet.deposits.repository.ts';
import { decimal, shownAddress } from './wallet.networks.ts';
import type { ChainName, NetworkRow } from './wallet.repository.ts';
import { type DepositsContext, nowIso, requireLive } from './wallet.shared.ts';

/* The customer's side of money in: their deposit address per chain, and their deposits. */

/** The customer's deposit address on a network: derived once (index = the customer's id) and kept. */
export async function address(
  ctx: DepositsContext,
  book: Book,
  userId: number,
  networkId: string,
): Promise<{ network: string; address: string }> {
  requireLive(book);
  const network = await ctx.networks.get(networkId);
  return { network: network.id, address: shownAddress(await addressOn(ctx, userId, network.chain)) };
}

export async function addressOn(ctx: DepositsContext, userId: number, chain: ChainName): Promise<string> {
  const known = await depositAddressOf(ctx.db, userId, chain);
  if (known) return known;
  const derived = chain === 'evm' ? ctx.derive.evm(userId) : ctx.derive.bitcoin(userId);
  await saveDepositAddress(ctx.db, { userId, chain, index: userId, address: derived }, nowIso(ctx));
  return (await depositAddressOf(ctx.db, userId, chain)) ?? derived;
}

export async function list(ctx: DepositsContext, book: Book, userId: number): Promise<Deposit[]> {
  requireLive(book);
  const [rows, networks] = await Promise.all([depositsOf(ctx.db, userId, 200), ctx.networks.all()]);
  const head = rows.some((r) => r.state === 'confirming' || r.state === 'credited')
    ? await headOf(ctx)
    : null;
  return rows.map((row) => depositWire(row, networks, head));
}

export async function one(ctx: DepositsContext, userId: number, id: number): Promise<Deposit> {
  const row = await depositById(ctx.db, id);
  if (!row || row.userId !== userId) throw new ApiError(Code.NOT_FOUND);
  return depositWire(row, await ctx.networks.all(), await headOf(ctx));
}

/** The chain's head block, or null without a chain or when it does not answer. */
async function headOf(ctx: DepositsContext): Promise<bigint | null> {
  try {
    return ctx.chain ? await ctx.chain.head() : null;
  } catch {
    return null;
  }
}

export const confirmationsOf = (row: DepositRow, head: bigint | null): number =>
  head === null || row.blockNumber === null || head < row.blockNumber
    ? 0
    : Number(head - row.blockNumber + 1n);

/** A deposit as the customer reads it, with its progress and the seconds to its next step. */
export function depositWire(row: DepositRow, networks: NetworkRow[], head: bigint | null): Deposit {
  const network = networks.find((n) => n.id === row.network);
  const credit = network?.creditConfirmations ?? 0;
  const unlock = network?.unlockConfirmations ?? 0;
  const confirmations =
    row.blockNumber === null
      ? 0
      : row.state === 'available'
        ? unlock
        : Math.min(confirmationsOf(row, head), unlock);
  const next = row.state === 'confirming' ? credit : row.state === 'credited' ? unlock : null;
  // The confirmations left times the network's block time: it counts down block by block.
  const etaSeconds =
    next === null || !network ? null : Math.max(next - confirmations, 0) * network.blockSeconds;
  return {
    id: row.id,
    network: row.network,
    asset: row.asset,
    amount: decimal(row, row.amount),
    source: row.source,
    state: row.state,
    txHash: network?.chain === 'bitcoin' ? row.txHash : `0x${row.txHash}`,
    address: shownAddress(row.address),
    confirmations,
    creditConfirmations: credit,
    unlockConfirmations: unlock,
    etaSeconds,
    minimum: decimal(row, row.minimum),
    reason: row.reason,
    createdAt: row.createdAt,
    creditedAt: row.creditedAt,
  };
}
