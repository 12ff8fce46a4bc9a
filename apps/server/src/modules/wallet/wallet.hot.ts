import type { Chain, ChainAsset, ChainReceipt, Hex, TxFees, WithdrawalSigner } from '../../platform/chain.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';

/*
 * Following one transaction of the hot wallet until it is mined, shared by withdrawals
 * (wallet.send.ts) and the sends for other products (wallet.payouts.ts). Every transaction of a
 * nonce is stored before it is broadcast and any one of them may be the one mined, never two (one
 * nonce): so a replacement at a higher fee never pays twice, and a send is given up only once its
 * nonce is used, at the network's confirmations, by a transaction that is none of its own.
 */

/** Blocks a transaction may stay unmined before it is broadcast again (then every pass). */
export const REBROADCAST_BLOCKS = 20n;
/** Blocks unmined since its last signing before it is replaced, same nonce, at a higher fee. */
export const BUMP_BLOCKS = 40n;
/** Replacements at most (each +12.5 % and one wei over the last: ×1.8 after four). */
export const MAX_BUMPS = 4;
/** Blocks unmined since its first broadcast after which it is `stuck`: left for staff, still followed. */
export const STUCK_BLOCKS = 400n;

/** The EIP-1559 replacement rule of the nodes' pools (+10 % geth, +12.5 % others): an eighth more, rounded up, and a wei. */
export function bumped(fees: TxFees): TxFees {
  const up = (fee: bigint) => fee + (fee + 7n) / 8n + 1n;
  return { maxFeePerGas: up(fees.maxFeePerGas), maxPriorityFeePerGas: up(fees.maxPriorityFeePerGas) };
}

/** A stored transaction of the hot wallet: the newest signing of its nonce, and the earlier ones. */
export type HotTx = {
  asset: ChainAsset;
  to: string;
  amount: bigint;
  nonce: number;
  rawTx: string;
  txHash: string;
  /** Earlier hashes of the same nonce (replaced at a higher fee). */
  replaced: readonly string[];
  /** The head at its first broadcast (null: never reached the node). */
  sentBlock: bigint | null;
  /** The head at its last replacement. */
  bumpedBlock: bigint | null;
  bumps: number;
};

/** A replacement to store (before it is broadcast) in place of `txHash`: false when another pass stored one first. */
export type HotTxReplacement = { rawTx: string; txHash: string; block: bigint };

export type HotTxStore = {
  /** The first broadcast's head block. */
  broadcast(block: bigint): Promise<void>;
  /** Stores the replacement iff the stored newest hash is still `previous` (the earlier one kept in `replaced`). */
  replace(previous: string, next: HotTxReplacement): Promise<boolean>;
};

export type HotTxState =
  /** One of its hashes is mined (at any depth). */
  | { state: 'mined'; txHash: string; receipt: ChainReceipt }
  | { state: 'unmined'; txHash: string; stuck: boolean }
  /** Its nonce is used at the confirmations by a transaction that is none of its own: it will never be mined. */
  | { state: 'dropped'; txHash: string };

export type HotTxEnv = {
  chain: Chain;
  /** Null: followed and broadcast again, never replaced. */
  signer: WithdrawalSigner | null;
  /** The hot wallet's address (the sender); null: never judged dropped. */
  from: string | null;
  confirmations: number;
};

async function minedOf(chain: Chain, tx: HotTx): Promise<HotTxState | null> {
  for (const hash of [tx.txHash, ...tx.replaced]) {
    const receipt = await chain.receipt(hash as Hex);
    if (receipt) return { state: 'mined', txHash: hash, receipt };
  }
  return null;
}

/**
 * One look at a stored transaction: mined (one of its hashes), else broadcast (at once when it
 * never reached the node, again after REBROADCAST_BLOCKS), replaced at a higher fee after
 * BUMP_BLOCKS (at most MAX_BUMPS times), stuck after STUCK_BLOCKS; dropped only when its nonce is
 * used at the confirmations and none of its hashes is mined.
 */
export async function followHotTx(env: HotTxEnv, tx: HotTx, store: HotTxStore): Promise<HotTxState> {
  const { chain, signer } = env;
  const mined = await minedOf(chain, tx);
  if (mined) return mined;
  const head = await chain.head();
  if (tx.sentBlock === null) {
    await chain.broadcast(tx.rawTx as Hex);
    await store.broadcast(head);
    return (await minedOf(chain, tx)) ?? { state: 'unmined', txHash: tx.txHash, stuck: false };
  }
  const deep = head - BigInt(Math.max(1, env.confirmations)) + 1n;
  if (env.from && deep >= 0n && (await chain.minedNonce(env.from as Hex, deep)) > tx.nonce) {
    // Mined meanwhile (its block below `deep`, read before this look): else it never will be.
    return (await minedOf(chain, tx)) ?? { state: 'dropped', txHash: tx.txHash };
  }
  const stuck = head - tx.sentBlock > STUCK_BLOCKS;
  if (signer && tx.bumps < MAX_BUMPS && head - (tx.bumpedBlock ?? tx.sentBlock) > BUMP_BLOCKS) {
    // The signer's module (viem) is loaded only on a chain, when a send is first bumped.
    const { feesOf } = await import('../../platform/chain/signer.ts');
    const next = await signer.sign({
      asset: tx.asset,
      to: tx.to as Hex,
      amount: tx.amount,
      nonce: tx.nonce,
      fees: bumped(feesOf(tx.rawTx as Hex)),
    });
    const replacement = { rawTx: next.raw, txHash: next.hash.toLowerCase(), block: head };
    if (!(await store.replace(tx.txHash, replacement))) return { state: 'unmined', txHash: tx.txHash, stuck };
    // Stored: a failed broadcast is made again by a later pass.
    await chain.broadcast(next.raw).catch(() => undefined);
    return { state: 'unmined', txHash: replacement.txHash, stuck };
  }
  if (head - (tx.bumpedBlock ?? tx.sentBlock) > REBROADCAST_BLOCKS)
    await chain.broadcast(tx.rawTx as Hex).catch(() => undefined);
  return { state: 'unmined', txHash: tx.txHash, stuck };
}

/**
 * The gas a mined transaction of the hot wallet paid, booked once (`key`): ONE entry (kind `fee`,
 * ETH) from the platform's `fees` account (where the withdrawal fees are earned) to
 * `external_clearing`, the ETH that left the hot wallet, so the ledger matches the chain.
 */
export async function bookGas(
  ledger: LedgerService,
  key: string,
  reference: string,
  receipt: ChainReceipt,
): Promise<void> {
  if (receipt.fee <= 0n) return;
  await ledger.transfer({
    book: 'live',
    kind: 'fee',
    idempotencyKey: key,
    actor: 'system',
    reference,
    postings: [
      { accountId: await ledger.systemAccount('live', 'ETH', 'fees'), amount: -receipt.fee },
      { accountId: await ledger.systemAccount('live', 'ETH', 'external_clearing'), amount: receipt.fee },
    ],
  });
}
