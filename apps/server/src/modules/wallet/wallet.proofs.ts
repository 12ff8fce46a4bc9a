import { Code, type DepositChainCheck, type DepositChainVerdict } from '@swx/contract';
import type { Chain, Hex } from '../../platform/chain.ts';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { step } from './wallet.credit.ts';
import { depositWire } from './wallet.deposit-reads.ts';
import {
  type DepositRow,
  depositAddressOf,
  depositById,
  lockTransactionHash,
  moveDeposit,
  setProofBlock,
  transactionClaimed,
} from './wallet.deposits.repository.ts';
import { decimal, shownAddress } from './wallet.networks.ts';
import type { NetworkRow } from './wallet.repository.ts';
import { checkable, type DepositsContext, normalHash } from './wallet.shared.ts';

/*
 * The staff review of deposit proofs (wallet.review.ts reads through these): what the chain says
 * of a proof's transaction, the approval's check on chain, and the decision's writes.
 */

/**
 * What the chain says of a proof's transaction, with the block it was mined in (kept when approved).
 * `amount` is what it moved of the asset to the customer's deposit address.
 */
export type ChainLook = {
  verdict: DepositChainVerdict;
  amount: bigint | null;
  confirmations: number;
  blockNumber: bigint | null;
  blockHash: Hex | null;
};

async function networkOf(ctx: DepositsContext, id: string): Promise<NetworkRow | undefined> {
  return (await ctx.networks.all()).find((n) => n.id === id);
}

/** Are this network's proofs checked on chain (else: by hand)? */
export async function checkedOnChain(ctx: DepositsContext, networkId: string): Promise<boolean> {
  const network = await networkOf(ctx, networkId);
  return network !== undefined && checkable(network, ctx.chain);
}

/**
 * What the chain says of a proof's transaction: mined, successful, and how much of the network's
 * asset it moved to the customer's deposit address (the watcher's own reading of transfers, in
 * the transaction's block). Null for a network whose proofs are checked by hand.
 */
export async function look(ctx: DepositsContext, row: DepositRow): Promise<ChainLook | null> {
  const network = await networkOf(ctx, row.network);
  const chain = ctx.chain;
  if (!network || !checkable(network, chain)) return null;
  try {
    return await lookOnChain(ctx, chain, network, row);
  } catch (error) {
    ctx.logger?.warn({ err: error, deposit: row.id }, 'a deposit proof could not be checked on chain');
    return { verdict: 'unavailable', amount: null, confirmations: 0, blockNumber: null, blockHash: null };
  }
}

async function lookOnChain(
  ctx: DepositsContext,
  chain: Chain,
  network: NetworkRow,
  row: DepositRow,
): Promise<ChainLook> {
  const hash = `0x${row.txHash}` as Hex;
  const [receipt, head, address] = await Promise.all([
    chain.receipt(hash),
    chain.head(),
    depositAddressOf(ctx.db, row.userId, network.chain),
  ]);
  if (!receipt)
    return { verdict: 'not_found', amount: null, confirmations: 0, blockNumber: null, blockHash: null };
  const mined = {
    confirmations: head < receipt.blockNumber ? 0 : Number(head - receipt.blockNumber + 1n),
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
  };
  if (receipt.status !== 'success') return { verdict: 'failed', amount: null, ...mined };
  const moved = (await chain.transfers(receipt.blockNumber, receipt.blockNumber)).filter(
    (t) => normalHash(t.txHash) === row.txHash && t.asset === network.asset,
  );
  const mine = moved.filter((t) => address !== null && t.to === address.toLowerCase());
  const amount = mine.reduce((sum, t) => sum + t.amount, 0n);
  const verdict: DepositChainVerdict =
    moved.length === 0
      ? 'no_transfer'
      : mine.length === 0
        ? 'other_address'
        : amount < row.amount
          ? 'short'
          : 'matches';
  return { verdict, amount, ...mined };
}

/** The chain's answer as staff read it beside the proof. */
async function chainCheck(
  ctx: DepositsContext,
  row: DepositRow,
  network: NetworkRow | undefined,
): Promise<DepositChainCheck | null> {
  const seen = await look(ctx, row);
  if (!seen || !network) return null;
  return {
    verdict: seen.verdict,
    amount: seen.amount === null ? null : decimal(row, seen.amount),
    confirmations: seen.confirmations,
    creditConfirmations: network.creditConfirmations,
    unlockConfirmations: network.unlockConfirmations,
    blockNumber: seen.blockNumber === null ? null : seen.blockNumber.toString(),
  };
}

/**
 * Before a proof on a watched network is approved: the chain is read again, and the approval is
 * refused unless it matches (10047 with the verdict; 10031 when the node does not answer). The
 * block it was mined in is kept on the proof, which the approval then hands to the watcher.
 */
export async function confirmOnChain(ctx: DepositsContext, row: DepositRow): Promise<void> {
  const seen = await look(ctx, row);
  if (!seen) return;
  if (seen.verdict === 'unavailable') throw new ApiError(Code.SERVICE_UNAVAILABLE);
  if (seen.verdict !== 'matches' || seen.blockNumber === null || seen.blockHash === null)
    throw new ApiError(Code.CHAIN_DOES_NOT_CONFIRM, { verdict: seen.verdict });
  if (!(await setProofBlock(ctx.db, row.id, seen.blockNumber, seen.blockHash)))
    throw new ApiError(Code.WRONG_COLLECTION_STATUS);
}

/**
 * An approved proof on chain, moved on at once as the watcher would (credited with its lock when
 * deep enough); a step that fails is tried again by the watcher's next pass.
 */
export async function follow(ctx: DepositsContext, id: number): Promise<void> {
  const chain = ctx.chain;
  const row = await depositById(ctx.db, id);
  if (!chain || !row || row.blockNumber === null) return;
  const network = await networkOf(ctx, row.network);
  if (!network) return;
  try {
    await step(
      ctx,
      chain,
      await chain.head(),
      network,
      row,
      async (n) => (await chain.block(n))?.hash ?? null,
    );
  } catch (error) {
    ctx.logger?.error(
      { err: error, deposit: id },
      'an approved proof did not move on; tried again next pass',
    );
  }
}

/** The customer's own deposit address on the network, as shown; null when none was derived. */
async function customerAddress(ctx: DepositsContext, userId: number, network: NetworkRow | undefined) {
  const address = network ? await depositAddressOf(ctx.db, userId, network.chain) : null;
  return address === null ? null : shownAddress(address);
}

/** A declared deposit as staff review it: the proof, the customer's own address to match, and what the chain says. */
export async function proofItem(ctx: DepositsContext, row: DepositRow) {
  const [customer, networks] = await Promise.all([ctx.customers.get(row.userId), ctx.networks.all()]);
  const network = networks.find((n) => n.id === row.network);
  return {
    id: row.id,
    userId: row.userId,
    customer: customer?.email ?? customer?.userName ?? `#${row.userId}`,
    network: row.network,
    asset: row.asset,
    amount: decimal(row, row.amount),
    txHash: depositWire(row, networks, null).txHash,
    createdAt: row.createdAt,
    lastSix: row.lastSix ?? '',
    address: shownAddress(row.address),
    customerAddress: await customerAddress(ctx, row.userId, network),
    proof: row.proofUpload ?? '',
    state: row.state,
    reason: row.reason,
    onChain: network !== undefined && checkable(network, ctx.chain),
    chain: await chainCheck(ctx, row, network),
  };
}

/**
 * In the approval's transaction: the hash still unclaimed by a chain deposit, then the deposit
 * available (checked by hand: the hold posted to the wallet), or, checked on chain (its block
 * kept), confirming: the watcher's path from there.
 */
export async function approveInTx(
  tx: Queryable,
  row: DepositRow,
  entryId: number | null,
  at: string,
): Promise<void> {
  await lockTransactionHash(tx, row.txHash);
  if (await transactionClaimed(tx, row.txHash, row.id)) throw new ApiError(Code.TRANSACTION_ALREADY_USED);
  const current = await depositById(tx, row.id);
  const moved =
    current?.blockNumber != null
      ? await moveDeposit(tx, row.id, ['pending_review'], 'confirming')
      : await moveDeposit(tx, row.id, ['pending_review'], 'available', {
          ...(entryId === null ? {} : { creditEntryId: entryId }),
          creditedAt: at,
        });
  if (!moved) throw new ApiError(Code.WRONG_COLLECTION_STATUS);
}

export async function rejectInTx(tx: Queryable, row: DepositRow, reason: string): Promise<void> {
  if (!(await moveDeposit(tx, row.id, ['pending_review'], 'rejected', { reason })))
    throw new ApiError(Code.WRONG_COLLECTION_STATUS);
}
