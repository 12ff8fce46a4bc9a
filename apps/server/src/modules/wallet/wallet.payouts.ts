import {
  CHAIN_ASSETS,
  type Chain,
  type ChainAsset,
  type Hex,
  type WithdrawalSigner,
} from '../../platform/chain.ts';
import type { Database } from '../../platform/db.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { ChainPayoutOrder, ChainPayoutState } from '../products/ports.ts';
import { replaceHotTx } from './wallet.hot.repository.ts';
import { bookGas, followHotTx } from './wallet.hot.ts';
import { type Networks, normalAddress } from './wallet.networks.ts';
import {
  endHotSend,
  type HotSendRow,
  hotSendByKey,
  insertHotSend,
  lockHotSendKey,
  markBroadcast,
} from './wallet.payouts.repository.ts';
import { takeNonce } from './wallet.withdrawals.repository.ts';

export type HotPayoutsDeps = {
  db: Database;
  chain: Chain | null;
  signer: WithdrawalSigner | null;
  networks: Networks;
  ledger: LedgerService;
  now: () => number;
};

/**
 * The hot wallet's sends for other products (the port `ChainPayout`, products/ports.ts): once per
 * key, the transfer signed with the hot wallet's next nonce (`wallet_hot_nonces`, shared with
 * withdrawals) and stored BEFORE it is broadcast; a later call with the key broadcasts that same
 * transaction again while it is unmined, or a replacement of the same nonce at a higher fee (never
 * a second nonce), and answers where it stands: confirmed at the confirmations of the asset's
 * watched network (its gas booked), stuck, or dropped (its nonce used by another transaction).
 */
export class HotPayouts {
  private readonly deps: HotPayoutsDeps;

  constructor(deps: HotPayoutsDeps) {
    this.deps = deps;
  }

  /** The assets it can send now: the chain's (USDT, ETH) with a chain and a signer, else none (port `ChainPayoutAssets`). */
  assets(): readonly string[] {
    return this.deps.chain && this.deps.signer ? CHAIN_ASSETS : [];
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
    return this.follow(chain, signer, row);
  }

  /** The send of `key` signed with the next nonce and stored (or the one stored meanwhile); broadcast by `follow`. */
  private async sign(
    chain: Chain,
    signer: WithdrawalSigner,
    key: string,
    order: { asset: ChainAsset; to: string; amount: bigint },
  ): Promise<HotSendRow> {
    const chainNext = await chain.nonce(signer.address);
    return this.deps.db.transaction(async (tx) => {
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
      const made = {
        key,
        chainId: chain.chainId,
        ...order,
        nonce,
        rawTx: signed.raw,
        txHash: signed.hash.toLowerCase(),
        sentBlock: null,
      };
      await insertHotSend(tx, made, new Date(this.deps.now()).toISOString());
      return { ...made, replaced: [], bumps: 0, bumpedBlock: null, state: 'pending' as const };
    });
  }

  /**
   * Where a stored send stands (the shared follower, wallet.hot.ts: broadcast, replaced at a higher
   * fee, stuck, dropped); mined, its gas is booked once and, at the confirmations, it is confirmed.
   */
  private async follow(chain: Chain, signer: WithdrawalSigner, row: HotSendRow): Promise<ChainPayoutState> {
    const { db, ledger } = this.deps;
    const confirmations = await this.confirmations(row.asset);
    const seen = await followHotTx(
      { chain, signer, from: signer.address, confirmations },
      { ...row, asset: row.asset as ChainAsset },
      {
        broadcast: (block) => markBroadcast(db, row.key, block),
        replace: (previous, next) => replaceHotTx(db, 'send', row.key, previous, next),
      },
    );
    if (seen.state === 'dropped') {
      await endHotSend(db, row.key, 'dropped', seen.txHash);
      return { state: 'dropped', txHash: seen.txHash };
    }
    if (seen.state === 'unmined') return { state: seen.stuck ? 'stuck' : 'pending', txHash: seen.txHash };
    const { receipt, txHash } = seen;
    const reverted = receipt.status === 'reverted';
    if (!reverted && (await chain.head()) - receipt.blockNumber + 1n < BigInt(confirmations))
      return { state: 'pending', txHash };
    await bookGas(ledger, `hot-send:${row.key}:gas`, `hot_send:${row.key}`, receipt);
    await endHotSend(db, row.key, reverted ? 'reverted' : 'confirmed', txHash);
    return { state: reverted ? 'reverted' : 'confirmed', txHash };
  }

  /** The credit confirmations of the asset's watched network (1 when none is configured). */
  private async confirmations(asset: string): Promise<number> {
    const network = (await this.deps.networks.all()).find((n) => n.asset === asset && n.watched);
    return Math.max(1, network?.creditConfirmations ?? 1);
  }
}
