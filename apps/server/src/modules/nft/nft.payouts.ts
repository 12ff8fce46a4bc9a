import {
  ASSET_SCALES,
  Code,
  formatMinor,
  MoneyFormatError,
  NFT_ASSETS,
  type NftPayout,
  parseMinor,
} from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { EntryAttachment } from '../ledger/ledger.service.ts';
import type { ChainPayout, ChainPayoutAssets } from '../products/ports.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { StaffSession } from '../staff/staff.shared.ts';
import {
  decidePayout,
  insertPayout,
  listPayouts,
  type PayoutRow,
  payoutById,
} from './nft.payouts.repository.ts';
import {
  type PayoutChainContext,
  type PayoutLeafAppend,
  type PayoutOutcome,
  type PayoutStep,
  sendPayouts,
  writePayoutStep,
} from './nft.payouts.send.ts';
import { listCharities } from './nft.repository.ts';
import type { NftService } from './nft.service.ts';
import { shownAddress } from './nft.views.ts';

/**
 * Payouts from the live charity account to a charity's own address, with four eyes: one staff
 * member proposes (at most what the account holds: 10067), another decides (the proposer: 10049).
 * Approving posts ONE ledger entry (kind `nft`: charity → `pending_withdrawals`, the money on its
 * way out) with the payout marked approved in the entry's transaction (`nft_payout` attachment).
 * The payout job then sends it on the chain through the wallet's port and, once confirmed, appends
 * its leaf with the transaction hash to the donation log (`nft.payouts.send.ts`).
 */

/** The writer of the `nft` entries' attachment: a payout's decision, its sending or its failure, each once. */
export function payoutWriter(appendLeaf: PayoutLeafAppend | null = null) {
  return async (
    tx: Queryable,
    rows: readonly { entryId: number; data: PayoutStep }[],
  ): Promise<ReadonlyMap<number, true>> => {
    for (const { entryId, data } of rows) {
      const done =
        data.step === 'approve'
          ? await decidePayout(tx, data.payoutId, {
              state: 'approved',
              by: data.staffId,
              at: data.at,
              entryId,
              reason: null,
            })
          : await writePayoutStep(tx, entryId, data, appendLeaf);
      if (!done) throw new ApiError(Code.NFT_DROP_STATE, { state: 'decided' });
    }
    return new Map(rows.map((r) => [r.entryId, true]));
  };
}

export class NftPayouts {
  private readonly nft: NftService;
  private readonly staff: StaffService;
  private readonly entries: EntryAttachment<PayoutStep, true>;
  private readonly chain: { send: ChainPayout | null; onError?: PayoutChainContext['onError'] };
  private readonly assets: ChainPayoutAssets | null;

  /**
   * `chain.send`: the wallet's hot-wallet sender (null: no chain, an approved payout fails and its
   * money returns to the charity account); `chain.assets`: what it can send (a payout in another
   * asset is refused when proposed, 10068; absent: what `send` may send is not known beforehand);
   * `appendLeaf`: the donation log's append.
   */
  constructor(
    nft: NftService,
    staff: StaffService,
    chain: {
      send: ChainPayout | null;
      assets?: ChainPayoutAssets | null;
      appendLeaf: PayoutLeafAppend | null;
      onError?: PayoutChainContext['onError'];
    },
  ) {
    this.nft = nft;
    this.staff = staff;
    this.entries = nft.ledger.attachment('nft', payoutWriter(chain.appendLeaf));
    this.chain = { send: chain.send, ...(chain.onError ? { onError: chain.onError } : {}) };
    this.assets = chain.assets ?? null;
  }

  /** The charity account's assets a payout can be sent in now (all of them when the sender does not say). */
  sendable(): ('USDT' | 'USDC')[] {
    const assets = this.assets?.() ?? NFT_ASSETS;
    return NFT_ASSETS.filter((a) => assets.includes(a));
  }

  /** One pass of the payout job: approved payouts sent on the chain, sending ones followed to the end. */
  sendDue(): Promise<Map<number, PayoutOutcome>> {
    return sendPayouts({ nft: this.nft, entries: this.entries, ...this.chain });
  }

  private wire(p: PayoutRow): NftPayout {
    return {
      id: String(p.id),
      charityId: String(p.charityId),
      charityName: p.charityName,
      address: shownAddress(p.address),
      asset: p.asset,
      amount: formatMinor(p.amount, ASSET_SCALES[p.asset]),
      state: p.state,
      reason: p.reason,
      proposedBy: p.proposedBy,
      decidedBy: p.decidedBy,
      txHash: p.txHash,
      logIndex: p.logIndex,
      createdAt: p.createdAt,
      decidedAt: p.decidedAt,
    };
  }

  async list(): Promise<NftPayout[]> {
    return (await listPayouts(this.nft.db, 100)).map((p) => this.wire(p));
  }

  private async charityBalance(asset: 'USDT' | 'USDC'): Promise<bigint> {
    const account = await this.nft.ledger.systemAccount('live', asset, 'charity');
    return (await this.nft.ledger.account(account))?.balance ?? 0n;
  }

  async propose(
    session: StaffSession,
    body: { charityId: number; asset: 'USDT' | 'USDC'; amount: string },
  ): Promise<NftPayout> {
    let amount: bigint;
    try {
      amount = parseMinor(body.amount, ASSET_SCALES[body.asset]);
    } catch (error) {
      if (error instanceof MoneyFormatError)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'amount', issue: 'too_many_decimals' }]);
      throw error;
    }
    if (!(await listCharities(this.nft.db)).some((c) => c.id === body.charityId))
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'charityId', issue: 'unknown' }]);
    // Refused now rather than approved and then failed on the chain.
    const sendable = this.sendable();
    if (!sendable.includes(body.asset)) throw new ApiError(Code.NFT_PAYOUT_ASSET, { sendable });
    if (amount > (await this.charityBalance(body.asset))) throw new ApiError(Code.NFT_PAYOUT_OVER_BALANCE);
    const at = new Date(this.nft.now()).toISOString();
    const id = await this.nft.transaction(async (tx) => {
      const payoutId = await insertPayout(tx, { ...body, amount, proposedBy: session.staffId, at });
      await this.staff.record(session, 'nft.payout.proposed', `nft_payout:${payoutId}`, body, tx);
      return payoutId;
    });
    return this.wire((await payoutById(this.nft.db, id)) as PayoutRow);
  }

  async decide(
    session: StaffSession,
    body: { payoutId: number; approve: boolean; reason?: string | undefined },
  ): Promise<NftPayout> {
    const payout = await payoutById(this.nft.db, body.payoutId);
    if (!payout) throw new ApiError(Code.NOT_FOUND);
    if (payout.proposedById === session.staffId) throw new ApiError(Code.OWN_PROPOSAL);
    if (payout.state !== 'proposed') throw new ApiError(Code.NFT_DROP_STATE, { state: payout.state });
    const at = new Date(this.nft.now()).toISOString();
    if (!body.approve) {
      await this.nft.transaction(async (tx) => {
        await decidePayout(tx, payout.id, {
          state: 'rejected',
          by: session.staffId,
          at,
          entryId: null,
          reason: body.reason ?? null,
        });
        await this.staff.record(session, 'nft.payout.rejected', `nft_payout:${payout.id}`, body, tx);
      });
    } else {
      if (payout.amount > (await this.charityBalance(payout.asset)))
        throw new ApiError(Code.NFT_PAYOUT_OVER_BALANCE);
      await this.nft.ledger.transfer({
        book: 'live',
        kind: 'nft',
        idempotencyKey: `nft-payout:${payout.id}`,
        actor: `staff:${session.staffId}`,
        reference: `nft_payout:${payout.id}`,
        postings: [
          {
            accountId: await this.nft.ledger.systemAccount('live', payout.asset, 'charity'),
            amount: -payout.amount,
          },
          {
            accountId: await this.nft.ledger.systemAccount('live', payout.asset, 'pending_withdrawals'),
            amount: payout.amount,
          },
        ],
        attach: this.entries.with({ step: 'approve', payoutId: payout.id, staffId: session.staffId, at }),
      });
      await this.staff.record(session, 'nft.payout.approved', `nft_payout:${payout.id}`, body);
    }
    return this.wire((await payoutById(this.nft.db, payout.id)) as PayoutRow);
  }
}
