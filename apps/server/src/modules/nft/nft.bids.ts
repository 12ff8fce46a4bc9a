import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { HoldTarget } from '../ledger/ledger.service.ts';
import { type Judgement, judgeBid } from './nft.auction.ts';
import { insertBids, type NewBid, setBidStates } from './nft.bids.repository.ts';
import { type DropRow, lockDrops, saveSale } from './nft.repository.ts';

/**
 * A bid is a ledger hold on the bidder's wallet with this attachment: in the ledger batch that
 * places the hold, under the drop's row lock, each bid of the batch is judged in order by the
 * rules (`judgeBid`) at the service clock's now, written as leading (the one it displaces is now
 * outbid) or refused, and the drop's leading bid, count and end are saved. So the hold and the
 * bid exist together or not at all, and two bids never both lead. A refused bid's hold, and an
 * outbid one's, is voided by the caller right after (and by the settlement runner's sweep after a
 * crash): money is held for a bid only while it leads.
 */

/** What a bid's hold carries (bigints as text: the data is hashed with the ledger request). */
export type BidData = {
  dropId: number;
  userId: number;
  book: Book;
  kind: 'bid' | 'buy';
  amount: string;
  requestId: string;
};

/** The bid a new one displaced: its hold is to be voided and its bidder told. */
export type Displaced = { bidId: number; holdId: number; userId: number; amount: bigint };

export type BidOutcome = {
  bidId: number;
  judgement: Judgement;
  displaced: Displaced | null;
};

type Leader = { bidId: number | null; index: number | null; holdId: number; userId: number; amount: bigint };

/** The writer of the `nft_bid` hold attachment: judges and writes one batch's bids. */
export function bidWriter(now: () => number) {
  return async (
    tx: Queryable,
    rows: readonly (HoldTarget & { data: BidData })[],
  ): Promise<ReadonlyMap<number, BidOutcome>> => {
    const at = now();
    const drops = await lockDrops(tx, [...new Set(rows.map((r) => r.data.dropId))]);
    const leaders = new Map<number, Leader | null>();
    for (const [id, drop] of drops) leaders.set(id, leaderOf(drop));
    const bids: NewBid[] = [];
    const judged: { judgement: Judgement; displaced: Leader | null }[] = [];
    for (const row of rows) {
      const drop = drops.get(row.data.dropId);
      const ask = { userId: row.data.userId, kind: row.data.kind, amount: BigInt(row.data.amount) };
      const judgement: Judgement = drop
        ? judgeBid(drop, ask, at)
        : { accepted: false, reason: 'closed', minBid: null };
      const displaced = judgement.accepted ? (leaders.get(row.data.dropId) ?? null) : null;
      if (drop && judgement.accepted) {
        Object.assign(drop, judgement.next);
        leaders.set(drop.id, { bidId: null, index: bids.length, holdId: row.holdId, ...ask });
      }
      judged.push({ judgement, displaced });
      bids.push({
        ...row.data,
        amount: ask.amount,
        holdId: row.holdId,
        state: judgement.accepted ? 'leading' : 'refused',
        reason: judgement.accepted ? null : judgement.reason,
        endsAfter: new Date(drop?.endsAt ?? at).toISOString(),
        createdAt: new Date(at).toISOString(),
      });
    }
    const ids = await insertBids(tx, bids);
    const idOf = (l: Leader) => l.bidId ?? (ids[l.index as number] as number);
    const outbid = judged.flatMap((j) => (j.displaced ? [idOf(j.displaced)] : []));
    await setBidStates(tx, outbid, 'outbid');
    for (const [id, leader] of leaders) {
      const drop = drops.get(id) as DropRow;
      if (leader && leader.bidId === null) await saveSale(tx, id, { ...drop, leaderBidId: idOf(leader) });
    }
    return new Map(
      rows.map((row, i) => {
        const j = judged[i] as (typeof judged)[number];
        const d = j.displaced;
        const displaced = d ? { bidId: idOf(d), holdId: d.holdId, userId: d.userId, amount: d.amount } : null;
        return [row.holdId, { bidId: ids[i] as number, judgement: j.judgement, displaced }];
      }),
    );
  };
}

function leaderOf(drop: DropRow): Leader | null {
  if (drop.leaderBidId === null || drop.leaderHoldId === null || drop.leaderUserId === null) return null;
  return {
    bidId: drop.leaderBidId,
    index: null,
    holdId: drop.leaderHoldId,
    userId: drop.leaderUserId,
    amount: drop.currentBid as bigint,
  };
}
