import {
  CHAIN_ASSETS,
  type Chain,
  type ChainAsset,
  type Hex,
  type WithdrawalSigner,
} from '../../platform/chain.ts';
import type { Database } from '../../platform/db.ts';
import type { ChainPayoutOrder, ChainPayoutState } from '../products/ports.ts';
import { type Networks, normalAddress } from './wallet.networks.ts';
import {
  type HotSendRow,
  hotSendByKey,
  insertHotSend,
  lockHotSendKey,
  markBroadcast,
} from './wallet.payouts.repository.ts';
import { REBROADCAST_BLOCKS } from './wallet.send.ts';
import { takeNonce } from './wallet.withdrawals.repository.ts';

export type HotPayoutsDeps = {
  db: Database;
  chain: Chain | null;
  signer: WithdrawalSigner | null;
  networks: Networks;
  now: () => number;
};

/**
 * The hot wallet's sends for other products (the port `ChainPayout`, products/ports.ts): once per
 * key, the transfer signed with the hot wallet's next nonce (`wallet_hot_nonces`, shared with
 * withdrawals) and stored BEFORE it is broadcast; a later call with the key broadcasts that same
 * transaction again while it is unmined (never a second one) and answers where it stands, confirmed
 * at the confirmations of the asset's watched network.
 */
export class HotPayouts {
  private readonly deps: HotPayoutsDeps;

  constructor(deps: HotPayoutsDeps) {
    this.deps = deps;
  }

  async send(key: string, order: ChainPayoutOrder): Promise<ChainPayoutState> {
    const { chain, signer, db } = this.deps;
    if (!chain || !signer) return { state: 'refused', reason: 'no_chain' };
    const asset = CHAIN_ASSETS.find((a) => a === order.asset);
    if (!asset) return { state: 'refused', reason: 'asset' };
    const to = normalAddress({ addressFormat: 'evm' }, order.to, 'to');
    const stored = await hotSendByKey(db, key);
    const row = stored ?? (await this.sign(chain, signer, key, { asset, to, amount: order.amount }));
    if (row.to !== to || row.amount !== order.amount || row.asset !== asset)
      throw new Error(`hot wallet send ${key} was made for another order`);
    return this.follow(chain, row);
  }

  /** The send of `key` signed with the next nonce and stored (or the one stored meanwhile), then broadcast. */
  private async sign(
    chain: Chain,
    signer: WithdrawalSigner,
    key: string,
    order: { asset: ChainAsset; to: string; amount: bigint },
  ): Promise<HotSendRow> {
    const chainNext = await chain.nonce(signer.address);
    const row = await this.deps.db.transaction(async (tx) => {
      await lockHotSendKey(tx, key);
      const already = await hotSendByKey(tx, key);
      if (already) return already;
      const nonce = await takeNonce(tx, chain.chainId, signer.address, chainNext);
      const signed = await signer.sign({
        asset: order.asset,
        to: order.to as Hex,
        amount: order.amount,
        nonce,
      });
      const made: HotSendRow = {
        key,
        chainId: chain.chainId,
        ...order,
        nonce,
        rawTx: signed.raw,
        txHash: signed.hash.toLowerCase(),
        sentBlock: null,
      };
      await insertHotSend(tx, made, new Date(this.deps.now()).toISOString());
      return made;
    });
    // Stored: a broadcast that fails here is made again by the next call with the key.
    await this.broadcast(chain, row);
    return { ...row, sentBlock: row.sentBlock ?? (await chain.head()) };
  }

  private async broadcast(chain: Chain, row: HotSendRow): Promise<void> {
    await chain.broadcast(row.rawTx as Hex);
    await markBroadcast(this.deps.db, row.key, await chain.head());
  }

  /** Where a stored send stands; unmined, it is broadcast again (at once when never broadcast). */
  private async follow(chain: Chain, row: HotSendRow): Promise<ChainPayoutState> {
    const receipt = await chain.receipt(row.txHash as Hex);
    if (!receipt) {
      const head = await chain.head();
      if (row.sentBlock === null) await this.broadcast(chain, row);
      else if (head - row.sentBlock > REBROADCAST_BLOCKS)
        await chain.broadcast(row.rawTx as Hex).catch(() => undefined);
      return { state: 'pending', txHash: row.txHash };
    }
    if (receipt.status === 'reverted') return { state: 'reverted', txHash: row.txHash };
    const confirmations = await this.confirmations(row.asset);
    const depth = (await chain.head()) - receipt.blockNumber + 1n;
    return { state: depth >= BigInt(confirmations) ? 'confirmed' : 'pending', txHash: row.txHash };
  }

  /** The credit confirmations of the asset's watched network (1 when none is configured). */
  private async confirmations(asset: string): Promise<number> {
    const network = (await this.deps.networks.all()).find((n) => n.asset === asset && n.watched);
    return Math.max(1, network?.creditConfirmations ?? 1);
  }
}
