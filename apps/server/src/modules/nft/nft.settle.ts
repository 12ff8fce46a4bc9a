import { ASSET_SCALES, formatMinor } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import type { HoldAttachment, HoldTarget, LedgerService } from '../ledger/ledger.service.ts';
import { LedgerError } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { outcome, saleSplit } from './nft.auction.ts';
import { type BidRow, bidById, bidsToVoid, setBidStates, setHoldStates } from './nft.bids.repository.ts';
import {
  closeSold,
  closeUnsold,
  type DropRow,
  dropById,
  dueDrops,
  insertHoldings,
  lockDrops,
  type NewHolding,
} from './nft.repository.ts';

/**
 * Settlement: each sale closes exactly once. An auction past its end (or a purchase, whose end is
 * the second it was bought) is closed by posting the leading bid's hold in ONE ledger entry
 * (kind `nft`: buyer's wallet → the book's `charity` account its share, and → `fees` the platform
 * fee the drop states, when above 0: one post of the hold to two accounts, `PostHoldRequest.also`) with
 * the `nft_sale` attachment, which, under the drop's row lock, checks that the bid still leads and
 * the end has passed, marks the drop sold, writes the buyer's holding and appends the donation to
 * the public log, all in the entry's transaction. The entry's key is `nft-sale:<drop>`, and a
 * hold posts once: a second node, a retry or a crash replays, never pays twice. Without a bid at
 * or above the reserve the drop closes unsold (`UPDATE … WHERE state = 'listed'`: once) and the
 * leading bid is lost; its hold, like every outbid or refused bid's, is voided by `sweepVoids`.
 */

/** Donations appended to the public log in the sales' transaction, in order: their leaf indexes. */
export type DonationAppend = (
  tx: Queryable,
  leaves: readonly { kind: 'sale'; dropId: number; tokenId: bigint | null; amount: bigint; asset: string }[],
) => Promise<number[]>;

export type SaleData = {
  dropId: number;
  bidId: number;
  buyerId: number;
  price: string;
  donation: string;
  fee: string;
};

export type VoidData = { notice: { userId: number; params: Record<string, string> } | null };

export type SettleContext = {
  db: Database;
  ledger: LedgerService;
  notices: NoticesService;
  now: () => number;
  sales: HoldAttachment<SaleData, number>;
  voids: HoldAttachment<VoidData, true>;
};

/** Thrown by the sale writer when the drop changed since it was read: nothing is posted; tried again later. */
class SaleMoved extends Error {}

/**
 * The writer of the `nft_sale` hold attachment, set-based for a batch of sales: each drop still led
 * by the bid and past its end (else nothing of the batch is written: SaleMoved), closed sold, its
 * donation appended to the log (live book), its bid won and hold posted, its holding written.
 * Answers each post's holding id.
 */
export function saleWriter(deps: { now: () => number; donations: DonationAppend | null }) {
  return async (
    tx: Queryable,
    rows: readonly (HoldTarget & { data: SaleData })[],
  ): Promise<ReadonlyMap<number, number>> => {
    const at = deps.now();
    const iso = new Date(at).toISOString();
    const drops = await lockDrops(tx, [...new Set(rows.map((r) => r.data.dropId))]);
    for (const { data } of rows) {
      const drop = drops.get(data.dropId);
      if (!drop || drop.leaderBidId !== data.bidId || drop.endsAt === null || drop.endsAt > at)
        throw new SaleMoved(`drop ${data.dropId} moved before its sale posted`);
    }
    const sales = rows.map((r) => ({
      id: r.data.dropId,
      entryId: r.entryId as number,
      buyerId: r.data.buyerId,
    }));
    const closed = await closeSold(tx, sales, iso);
    if (closed.size !== rows.length) throw new SaleMoved('a drop of the batch is closed already');
    // Demo money is given to nobody: only the live book's sales are donations of the public log,
    // appended together in the batch's order.
    const given = rows.filter((r) => drops.get(r.data.dropId)?.book === 'live');
    const indexes = deps.donations
      ? await deps.donations(
          tx,
          given.map((r) => {
            const drop = drops.get(r.data.dropId) as DropRow;
            return {
              kind: 'sale' as const,
              dropId: r.data.dropId,
              tokenId: drop.tokenId,
              amount: BigInt(r.data.donation),
              asset: drop.asset,
            };
          }),
        )
      : [];
    const logIndexOf = new Map(given.map((r, i) => [r.data.dropId, indexes[i] ?? null]));
    const holdings: NewHolding[] = rows.map((row) => {
      const d = row.data;
      const drop = drops.get(d.dropId) as DropRow;
      return {
        dropId: d.dropId,
        userId: d.buyerId,
        book: drop.book,
        price: BigInt(d.price),
        donation: BigInt(d.donation),
        fee: BigInt(d.fee),
        entryId: row.entryId as number,
        logIndex: logIndexOf.get(d.dropId) ?? null,
        at: iso,
      };
    });
    await setBidStates(
      tx,
      rows.map((r) => r.data.bidId),
      'won',
    );
    await setHoldStates(
      tx,
      rows.map((r) => r.holdId),
      'posted',
    );
    const ids = await insertHoldings(tx, holdings);
    return new Map(rows.map((r) => [r.holdId, ids.get(r.data.dropId) as number]));
  };
}

/** The writer of the `nft_bid_void` hold attachment: the bid's hold is voided, its bidder told (same transaction). */
export function voidWriter(notices: NoticesService) {
  return async (
    tx: Queryable,
    rows: readonly (HoldTarget & { data: VoidData })[],
  ): Promise<ReadonlyMap<number, true>> => {
    await setHoldStates(
      tx,
      rows.map((r) => r.holdId),
      'voided',
    );
    for (const { data } of rows)
      if (data.notice)
        await notices.notifyInTx(tx, data.notice.userId, 'en', 'nft_outbid', data.notice.params);
    return new Map(rows.map((r) => [r.holdId, true]));
  };
}

/** Voids one bid's hold (idempotent on the bid); an outbid bid's bidder gets the notice with it. */
export async function voidBid(
  ctx: SettleContext,
  bid: BidRow,
  drop: Pick<DropRow, 'name' | 'asset'> | null,
): Promise<void> {
  const notice =
    bid.state === 'outbid' && drop !== null
      ? {
          userId: bid.userId,
          params: {
            name: drop.name,
            amount: formatMinor(bid.amount, ASSET_SCALES[drop.asset]),
            asset: drop.asset,
          },
        }
      : null;
  try {
    await ctx.ledger.voidHold({
      holdId: bid.holdId,
      idempotencyKey: `nft-void:${bid.id}`,
      actor: 'system:nft',
      attach: ctx.voids.with({ notice }),
    });
  } catch (error) {
    // Voided already under its key by another node: nothing to do.
    if (!(error instanceof LedgerError && error.reason === 'hold_not_pending')) throw error;
  }
}

/** Closes one drop if its end has passed: sold (one entry) or unsold. Answers what it did. */
export async function settleDrop(
  ctx: SettleContext,
  id: number,
): Promise<'sold' | 'unsold' | 'open' | 'closed'> {
  const drop = await dropById(ctx.db, id);
  return drop ? settleRow(ctx, drop) : 'closed';
}

/** `settleDrop` of a drop as read (the runner's page): the sale's figures are the leading bid's. */
async function settleRow(ctx: SettleContext, drop: DropRow): Promise<'sold' | 'unsold' | 'open' | 'closed'> {
  const id = drop.id;
  if (drop.state !== 'listed') return 'closed';
  const now = ctx.now();
  if (drop.endsAt === null || drop.endsAt > now) return 'open';
  if (outcome(drop) === 'unsold') {
    const closed = await ctx.db.transaction((tx) => closeUnsold(tx, id, new Date(now).toISOString()));
    if (closed && drop.leaderBidId !== null) {
      const lost = await bidById(ctx.db, drop.leaderBidId);
      if (lost) await voidBid(ctx, { ...lost, state: 'lost' }, null);
    }
    return closed ? 'unsold' : 'closed';
  }
  return postSale(ctx, drop);
}

/** Posts the sale: 'sold' by this call, 'closed' when another run posted it (a replay), 'open' when it moved. */
async function postSale(ctx: SettleContext, drop: DropRow): Promise<'sold' | 'closed' | 'open'> {
  const bid = {
    id: drop.leaderBidId as number,
    holdId: drop.leaderHoldId as number,
    userId: drop.leaderUserId as number,
    amount: drop.currentBid as bigint,
  };
  const split = saleSplit(bid.amount, drop.platformFeeBps);
  try {
    const posted = await ctx.ledger.postHold({
      holdId: bid.holdId,
      toAccountId: await ctx.ledger.systemAccount(drop.book, drop.asset, 'charity'),
      amount: split.charity,
      // The platform's fee, stated on the drop before any bid, in the same ONE entry.
      ...(split.fee > 0n
        ? {
            also: {
              accountId: await ctx.ledger.systemAccount(drop.book, drop.asset, 'fees'),
              amount: split.fee,
            },
          }
        : {}),
      kind: 'nft',
      idempotencyKey: `nft-sale:${drop.id}`,
      actor: 'system:nft',
      reference: `nft:${drop.id}`,
      attach: ctx.sales.with({
        dropId: drop.id,
        bidId: bid.id,
        buyerId: bid.userId,
        price: bid.amount.toString(),
        donation: split.charity.toString(),
        fee: split.fee.toString(),
      }),
    });
    return posted.replayed ? 'closed' : 'sold';
  } catch (error) {
    // The drop moved (a late bid on another node extended it): the next run settles it.
    if (error instanceof SaleMoved) return 'open';
    throw error;
  }
}

/**
 * One run of the settlement job: every drop due now, `parallel` at a time (their posts share the
 * ledger's batches), then the holds left to void. Answers how many closed.
 */
export async function settleDue(ctx: SettleContext, parallel = 64, page = 1000): Promise<number> {
  let closed = 0;
  for (;;) {
    const due = await dueDrops(ctx.db, new Date(ctx.now()).toISOString(), page);
    if (due.length === 0) break;
    let moved = 0;
    for (let i = 0; i < due.length; i += parallel) {
      const results = await Promise.all(due.slice(i, i + parallel).map((drop) => settleRow(ctx, drop)));
      closed += results.filter((r) => r === 'sold' || r === 'unsold').length;
      moved += results.filter((r) => r === 'open').length;
    }
    if (moved === due.length || due.length < page) break;
  }
  await sweepVoids(ctx);
  return closed;
}

/** Voids the holds of bids that no longer lead (after a crash between a bid and its void). */
export async function sweepVoids(ctx: SettleContext, limit = 1000): Promise<number> {
  const bids = await bidsToVoid(ctx.db, limit);
  await Promise.all(bids.map((bid) => voidBid(ctx, bid, null)));
  return bids.length;
}
