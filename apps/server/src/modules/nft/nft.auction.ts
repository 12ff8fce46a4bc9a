import { NFT_EXTENSION_SECONDS } from '@swx/contract';

/**
 * The rules of a sale, as pure arithmetic on minor units and epoch milliseconds: the one place a
 * bid is judged. The bid writer (nft.bids.ts) applies `judgeBid` to each bid of a ledger batch in
 * order, under the drop's row lock, and the property test replays the same function.
 */

export const EXTENSION_MS = NFT_EXTENSION_SECONDS * 1000;

/** What the rules need of a drop at the moment a bid is judged. */
export type SaleState = {
  saleType: 'fixed' | 'auction';
  state: 'draft' | 'listed' | 'sold' | 'unsold';
  startPrice: bigint;
  reserve: bigint | null;
  minIncrementBps: number;
  buyNow: bigint | null;
  startsAt: number | null;
  /** Auction: its end (as extended); fixed: null until bought (then the second it was bought). */
  endsAt: number | null;
  currentBid: bigint | null;
  leaderUserId: number | null;
  bidCount: number;
};

export type BidAsk = { userId: number; kind: 'bid' | 'buy'; amount: bigint };

export type Judgement =
  | { accepted: true; next: SaleState; endsAt: number; buysNow: boolean }
  | { accepted: false; reason: 'too_low' | 'closed' | 'leading'; minBid: bigint | null };

/** Least a bid may be: the start price first, then the current bid plus the increment, rounded up. */
export function minNextBid(sale: Pick<SaleState, 'currentBid' | 'startPrice' | 'minIncrementBps'>): bigint {
  if (sale.currentBid === null) return sale.startPrice;
  const step = (sale.currentBid * BigInt(sale.minIncrementBps) + 9_999n) / 10_000n;
  return sale.currentBid + (step > 0n ? step : 1n);
}

/** Open for bids and purchases now: listed, started, not past its end, not bought. */
export function isOpen(sale: SaleState, now: number): boolean {
  if (sale.state !== 'listed' || sale.startsAt === null || now < sale.startsAt) return false;
  return sale.endsAt === null || now < sale.endsAt;
}

/** The end after a bid at `now`: a bid in the last EXTENSION_MS moves it to EXTENSION_MS after the bid. */
export function extendedEnd(endsAt: number, now: number): number {
  return endsAt - now < EXTENSION_MS ? now + EXTENSION_MS : endsAt;
}

/** Whether the reserve is met by the current bid (no reserve: any bid meets it). */
export function reserveMet(sale: Pick<SaleState, 'currentBid' | 'reserve'>): boolean {
  return sale.currentBid !== null && (sale.reserve === null || sale.currentBid >= sale.reserve);
}

/**
 * Judges one bid or purchase at `now`. A purchase of a fixed-price drop pays the price and ends
 * the sale; on an auction it is a bid at the buy-now price. An auction bid must reach
 * `minNextBid`, may not outbid the bidder's own leading bid, extends a late end, and at or above
 * buy-now ends the auction at once.
 */
export function judgeBid(sale: SaleState, ask: BidAsk, now: number): Judgement {
  if (!isOpen(sale, now)) return { accepted: false, reason: 'closed', minBid: null };
  if (sale.saleType === 'fixed') {
    if (ask.amount !== sale.startPrice)
      return { accepted: false, reason: 'too_low', minBid: sale.startPrice };
    const next = { ...sale, currentBid: ask.amount, leaderUserId: ask.userId, bidCount: 1, endsAt: now };
    return { accepted: true, next, endsAt: now, buysNow: true };
  }
  if (ask.kind === 'buy' && (sale.buyNow === null || ask.amount !== sale.buyNow))
    return { accepted: false, reason: 'closed', minBid: null };
  const least = minNextBid(sale);
  if (ask.amount < least) return { accepted: false, reason: 'too_low', minBid: least };
  if (sale.leaderUserId === ask.userId) return { accepted: false, reason: 'leading', minBid: least };
  const buysNow = sale.buyNow !== null && ask.amount >= sale.buyNow;
  const endsAt = buysNow ? now : extendedEnd(sale.endsAt as number, now);
  const next = {
    ...sale,
    currentBid: ask.amount,
    leaderUserId: ask.userId,
    bidCount: sale.bidCount + 1,
    endsAt,
  };
  return { accepted: true, next, endsAt, buysNow };
}

/**
 * A sale's split: the platform's fee is floor(amount × feeBps / 10,000), the charity gets the rest
 * (its share, any rounding in its favour). charityShareBps + platformFeeBps = 10,000 always.
 */
export function saleSplit(amount: bigint, platformFeeBps: number): { charity: bigint; fee: bigint } {
  const fee = (amount * BigInt(platformFeeBps)) / 10_000n;
  return { charity: amount - fee, fee };
}

/** An ended auction's outcome: sold to the leader when the reserve is met, else unsold. */
export function outcome(sale: SaleState): 'sold' | 'unsold' {
  return reserveMet(sale) ? 'sold' : 'unsold';
}
