import {
  ASSET_SCALES,
  type Book,
  Code,
  formatMinor,
  MoneyFormatError,
  type MyNft,
  type MyNftBid,
  type NftDetail,
  type NftOrder,
  type NftQuote,
  type NftQuoteBody,
  type NftView,
  parseMinor,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { HoldAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { Quotes } from '../products/quotes.ts';
import type { DonationLog } from './log/log.service.ts';
import { judgeBid, saleSplit } from './nft.auction.ts';
import {
  bidByHold,
  bidById,
  bidByRequest,
  bidsOfDrop,
  holdingOfDrop,
  holdingsOf,
  openBidsOf,
} from './nft.bids.repository.ts';
import { type BidData, type BidOutcome, bidWriter } from './nft.bids.ts';
import { NFT_QUOTE, type NftQuoteFigures } from './nft.quote.ts';
import { type DropRow, donatedTotal, dropById, listDrops } from './nft.repository.ts';
import {
  type DonationAppend,
  type SaleData,
  type SettleContext,
  saleWriter,
  settleDrop,
  settleDue,
  sweepVoids,
  type VoidData,
  voidBid,
  voidWriter,
} from './nft.settle.ts';
import { idOrNull, myNftOf, nftBidOf, nftViewOf } from './nft.views.ts';

/** The donation log as this module uses it (nft/log: `DonationLog`). */
export type DonationLedger = {
  append: DonationAppend;
  /** What the log says the charity was given in an asset (the sales' donations). */
  cumulative(asset: string): Promise<bigint>;
};

/** The module's view of the donation log: appends in the sale's transaction, cumulative gifts from its leaves. */
export function donationsOf(log: DonationLog): DonationLedger {
  return {
    append: (tx, leaves) => log.appendMany(tx, leaves),
    cumulative: async (asset) => (await log.cumulative(asset)).given,
  };
}

export type NftDeps = {
  db: Database;
  ledger: LedgerService;
  notices: NoticesService;
  audit: AuditService;
  quoteKeys: PurposeKeys;
  now: () => number;
  /** The public donation log; null (benches): cumulative donations are read from the sales themselves. */
  donations?: DonationLedger | null;
};

const HISTORY = 50;

/**
 * Charity NFTs, the customer's side: the market, a drop and its bids, quote then commit for a bid
 * or a purchase (nft.bids.ts holds and judges), my NFTs and bids, and the settlement runner's work
 * (nft.settle.ts). Every time is the service clock's.
 */
export class NftService {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly audit: AuditService;
  readonly now: () => number;
  readonly settlement: SettleContext;
  private readonly quotes: Quotes<typeof NFT_QUOTE.figures>;
  private readonly bids: HoldAttachment<BidData, BidOutcome>;
  private readonly donations: DonationLedger | null;

  constructor(deps: NftDeps) {
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.audit = deps.audit;
    this.now = deps.now;
    this.donations = deps.donations ?? null;
    this.quotes = new Quotes(NFT_QUOTE, { keys: deps.quoteKeys, db: deps.db, now: deps.now });
    this.bids = deps.ledger.holdAttachment('nft_bid', bidWriter(deps.now));
    const donations: DonationAppend | null = this.donations?.append ?? null;
    this.settlement = {
      db: deps.db,
      ledger: deps.ledger,
      notices: deps.notices,
      now: deps.now,
      sales: deps.ledger.holdAttachment<SaleData, number>(
        'nft_sale',
        saleWriter({ now: deps.now, donations }),
      ),
      voids: deps.ledger.holdAttachment<VoidData, true>('nft_bid_void', voidWriter(deps.notices)),
    };
  }

  /** What the log (live) or the sales (demo, or no log) say the charity was given in an asset. */
  async cumulative(book: Book, asset: string): Promise<bigint> {
    if (book === 'live' && this.donations) return this.donations.cumulative(asset);
    return donatedTotal(this.db, book, asset);
  }

  async views(drops: DropRow[], viewer: number | null): Promise<NftView[]> {
    const now = this.now();
    const totals = new Map<string, bigint>();
    for (const d of drops)
      if (!totals.has(`${d.book}:${d.asset}`))
        totals.set(`${d.book}:${d.asset}`, await this.cumulative(d.book, d.asset));
    return drops.map((d) => nftViewOf(d, now, totals.get(`${d.book}:${d.asset}`) ?? 0n, viewer));
  }

  async market(
    book: Book,
    query: {
      state?: 'live' | 'upcoming' | 'ended';
      saleType?: 'fixed' | 'auction';
      before?: number;
      size?: number;
    },
    viewer: number | null,
  ): Promise<NftView[]> {
    const drops = await listDrops(this.db, {
      book,
      ...query,
      size: query.size ?? 20,
      now: new Date(this.now()).toISOString(),
    });
    return this.views(drops, viewer);
  }

  /** A drop of the request's book (a draft, or another book's, is not found: 10028). */
  async drop(book: Book, id: number): Promise<DropRow> {
    const drop = await dropById(this.db, id);
    if (!drop || drop.book !== book || drop.state === 'draft') throw new ApiError(Code.NOT_FOUND);
    return drop;
  }

  async detail(book: Book, id: number, viewer: number | null): Promise<NftDetail> {
    const drop = await this.drop(book, id);
    const [nft] = await this.views([drop], viewer);
    const bids = await bidsOfDrop(this.db, id, HISTORY);
    return { nft: nft as NftView, bids: bids.map((b) => nftBidOf(b, drop.asset, viewer)) };
  }

  /** The one function that checks a bid or purchase and computes its figures now. */
  private async figures(
    book: Book,
    userId: number,
    body: NftQuoteBody,
  ): Promise<{ f: NftQuoteFigures; drop: DropRow }> {
    const drop = await this.drop(book, body.dropId);
    let amount: bigint;
    if (body.kind === 'buy') {
      const price = drop.saleType === 'fixed' ? drop.startPrice : drop.buyNow;
      if (price === null) throw new ApiError(Code.NFT_SALE_CLOSED, { state: 'no_buy_now' });
      amount = price;
    } else {
      if (drop.saleType !== 'auction' || body.amount === undefined)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'amount', issue: 'required' }]);
      try {
        amount = parseMinor(body.amount, ASSET_SCALES[drop.asset]);
      } catch (error) {
        if (error instanceof MoneyFormatError)
          throw new ApiError(Code.INVALID_INPUT, [{ path: 'amount', issue: 'too_many_decimals' }]);
        throw error;
      }
    }
    refuse(judgeBid(drop, { userId, kind: body.kind, amount }, this.now()), drop);
    const split = saleSplit(amount, drop.platformFeeBps);
    return { f: { dropId: drop.id, kind: body.kind, amount, charity: split.charity, fee: split.fee }, drop };
  }

  /** A quote now, signed for this customer and book; nothing is held. 10011 when the balance cannot hold it. */
  async quote(book: Book, userId: number, body: NftQuoteBody): Promise<NftQuote> {
    const second = Math.floor(this.now() / 1000);
    const { f, drop } = await this.figures(book, userId, body);
    const wallet = (await this.ledger.balances(book, userId)).find((b) => b.asset === drop.asset);
    if ((wallet?.available ?? 0n) < f.amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
    const judged = judgeBid(drop, { userId, kind: f.kind, amount: f.amount }, this.now());
    const scale = ASSET_SCALES[drop.asset];
    return {
      ...this.quotes.issue({ customerId: userId, book }, second, f),
      dropId: String(drop.id),
      book,
      kind: f.kind,
      asset: drop.asset,
      amount: formatMinor(f.amount, scale),
      charityAmount: formatMinor(f.charity, scale),
      platformFee: formatMinor(f.fee, scale),
      buysNow: judged.accepted && judged.buysNow,
      endsAt: judged.accepted && drop.saleType === 'auction' ? new Date(judged.endsAt).toISOString() : null,
      rules: nftViewOf(drop, this.now(), 0n, userId).rules,
    };
  }

  /** `POST /user/buyNft`: places the bid (a hold) or the purchase (a hold posted at once), once per request id. */
  async commit(book: Book, userId: number, body: { quoteId: string; requestId: string }): Promise<NftOrder> {
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey: `${userId}:${book}:${body.requestId}`,
        replay: async () => {
          const bid = await bidByRequest(this.db, userId, book, body.requestId);
          return bid && bid.state !== 'refused' ? this.orderOf(book, bid.id) : null;
        },
        post: ({ figures }) => this.place(book, userId, body.requestId, figures),
      },
    );
  }

  private async place(book: Book, userId: number, requestId: string, f: NftQuoteFigures): Promise<NftOrder> {
    const drop = await this.drop(book, f.dropId);
    // Judged first on the drop as read, so a bid already beaten is refused without a hold; the
    // judgement that counts is the bid writer's, under the drop's lock, in the hold's batch.
    refuse(judgeBid(drop, { userId, kind: f.kind, amount: f.amount }, this.now()), drop);
    const hold = await this.ledger.hold({
      book,
      accountId: await this.ledger.walletAccount(book, userId, drop.asset),
      amount: f.amount,
      idempotencyKey: `nft-bid:${userId}:${book}:${requestId}`,
      actor: `customer:${userId}`,
      reference: `nft:${drop.id}`,
      attach: this.bids.with({
        dropId: drop.id,
        userId,
        book,
        kind: f.kind,
        amount: f.amount.toString(),
        requestId,
      }),
    });
    const outcome = hold.attached;
    const bid = await bidByHold(this.db, hold.holdId);
    if (!bid) throw new Error(`bid of hold ${hold.holdId} missing`);
    if (bid.state === 'refused') {
      await voidBid(this.settlement, bid, null);
      refuse(outcome?.judgement ?? { accepted: false, reason: bid.reason ?? 'closed', minBid: null }, drop);
    }
    const displaced = outcome?.displaced;
    if (displaced) {
      const lost = await bidByHold(this.db, displaced.holdId);
      if (lost) await voidBid(this.settlement, lost, drop);
    }
    if (outcome?.judgement.accepted && outcome.judgement.buysNow) await settleDrop(this.settlement, drop.id);
    return this.orderOf(book, bid.id);
  }

  private async orderOf(book: Book, bidId: number): Promise<NftOrder> {
    const bid = await bidById(this.db, bidId);
    if (!bid) throw new ApiError(Code.NOT_FOUND);
    const drop = await this.drop(book, bid.dropId);
    const holding = await holdingOfDrop(this.db, drop.id);
    const bought = holding !== null && holding.userId === bid.userId && bid.state === 'won';
    return {
      dropId: String(drop.id),
      kind: bid.kind,
      amount: formatMinor(bid.amount, ASSET_SCALES[drop.asset]),
      bidId: String(bid.id),
      state: bought ? 'bought' : 'leading',
      endsAt:
        drop.saleType === 'auction' && drop.endsAt !== null ? new Date(drop.endsAt).toISOString() : null,
      entryId: bought ? idOrNull(holding.entryId) : null,
    };
  }

  async myNfts(book: Book, userId: number): Promise<MyNft[]> {
    const holdings = await holdingsOf(this.db, userId, book);
    const out: MyNft[] = [];
    for (const h of holdings) {
      const drop = await dropById(this.db, h.dropId);
      if (drop) out.push(myNftOf(h, drop));
    }
    return out;
  }

  async myBids(book: Book, userId: number): Promise<MyNftBid[]> {
    const bids = await openBidsOf(this.db, userId, book);
    const out: MyNftBid[] = [];
    for (const bid of bids) {
      const drop = await dropById(this.db, bid.dropId);
      if (!drop) continue;
      const [nft] = await this.views([drop], userId);
      out.push({ nft: nft as NftView, bid: nftBidOf(bid, drop.asset, userId) });
    }
    return out;
  }

  /** The settlement runner's work: every due sale closed once, the holds left voided. */
  settleDue(parallel?: number): Promise<number> {
    return settleDue(this.settlement, parallel);
  }

  sweepVoids(): Promise<number> {
    return sweepVoids(this.settlement);
  }

  /** A transaction on this module's database (for the staff side). */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

/** A refused judgement as its catalogue code. */
function refuse(j: ReturnType<typeof judgeBid>, drop: DropRow): void {
  if (j.accepted) return;
  const scale = ASSET_SCALES[drop.asset];
  if (j.reason === 'too_low')
    throw new ApiError(Code.NFT_BID_TOO_LOW, {
      minBid: j.minBid === null ? null : formatMinor(j.minBid, scale),
    });
  if (j.reason === 'leading') throw new ApiError(Code.NFT_ALREADY_LEADING);
  throw new ApiError(Code.NFT_SALE_CLOSED, { state: drop.state });
}
