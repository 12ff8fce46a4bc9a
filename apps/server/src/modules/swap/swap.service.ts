import {
  ASSET_SCALES,
  type Book,
  Code,
  formatMinor,
  MoneyFormatError,
  parseMinor,
  type SwapAsset,
  type SwapBody,
  type SwapPair,
  type SwapPairAdmin,
  type SwapQuote,
  type SwapQuoteBody,
  type SwapRecord,
  type swapPairUpdateBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  type EntryAttachment,
  type EntryDetail,
  type EntryResult,
  LedgerError,
  type LedgerService,
} from '../ledger/ledger.service.ts';
import type { MarketService } from '../market/market.service.ts';
import { tickQuote } from '../market/pricing.ts';
import { ppmOf, ppmText } from '../products/figures.ts';
import { type QuoteHolder, Quotes } from '../products/quotes.ts';
import { midRate, type SidePrices, swapFigures, swapLegs, USDT_PRICE } from './swap.figures.ts';
import { SWAP, type SwapQuoteFigures } from './swap.quote.ts';
import {
  insertSwaps,
  listPairs,
  type NewSwap,
  type PairRow,
  pairOfAssets,
  type SwapRow,
  swapByEntry,
  swapByRequest,
  swapsOf,
  swapsOfEntries,
  updatePair,
} from './swap.repository.ts';

/** Swaps a page of the history holds. */
export const SWAP_HISTORY_PAGE = 50;

const scaleOf = (asset: SwapAsset) => ASSET_SCALES[asset];

/**
 * The currency swap (contract `swap.ts`): pairs staff set, quotes priced from the market at the
 * current second, and the commit of a quote as ONE ledger entry of kind `swap` whose attachment
 * writes the `swaps` row in the entry's transaction. Both books: the demo book swaps virtual money.
 */
export class SwapService {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  private readonly market: MarketService;
  private readonly audit: AuditService;
  private readonly now: () => number;
  private readonly quotes: Quotes<typeof SWAP.figures>;
  private readonly records: EntryAttachment<NewSwap, SwapRow>;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    market: MarketService;
    audit: AuditService;
    /** Epoch milliseconds (an injected clock in tests). */
    now?: () => number;
    /** The quotes' keys (platform/keys.ts), the same on every node; without them a random key of this process. */
    quoteKeys?: PurposeKeys;
  }) {
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.market = deps.market;
    this.audit = deps.audit;
    this.now = deps.now ?? Date.now;
    this.quotes = new Quotes(SWAP, {
      keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
      db: deps.db,
      now: () => this.now(),
    });
    this.records = this.ledger.attachment<NewSwap, SwapRow>('swap', (tx, rows) => insertSwaps(tx, rows));
    // The customer's record states each swap's figures (paid, received, fee) for the app to word.
    this.ledger.registerDescriber('swap', async (entryIds) => {
      const found = new Map<number, EntryDetail>();
      for (const s of await swapsOfEntries(this.db, entryIds))
        found.set(s.entryId, {
          orderNo: null,
          instrument: null,
          closeReason: null,
          swap: {
            id: s.id,
            from: s.from,
            to: s.to,
            amount: formatMinor(s.amount, scaleOf(s.from)),
            receive: formatMinor(s.receive, scaleOf(s.to)),
            fee: formatMinor(s.fee, scaleOf(s.to)),
          },
        });
      return found;
    });
  }

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  /**
   * An asset's price in USDT at second t, exactly as the market states it (its `<ASSET>USDT`
   * instrument at that second; USDT is 1); null when it cannot be traded at t: not listed, its
   * market closed or its price stale (the source says so), or no sane price.
   */
  private priceOf(asset: SwapAsset, t: number): SidePrices | null {
    if (asset === 'USDT') return USDT_PRICE;
    const instrument = this.market.instrument(`${asset}USDT`);
    if (!instrument || !this.market.isOpen(instrument, t)) return null;
    let quote: ReturnType<typeof tickQuote>;
    try {
      quote = tickQuote(instrument, t, this.market.source);
    } catch (error) {
      // No fresh quote at t: unavailable, not a fault.
      if (error instanceof ApiError) return null;
      throw error;
    }
    if (quote.bid <= 0n || quote.ask < quote.bid) return null;
    return {
      bid: formatMinor(quote.bid, instrument.decimals),
      ask: formatMinor(quote.ask, instrument.decimals),
    };
  }

  /** Every pair with its limits, fee rate, the mid-market rate now and whether it can be quoted now. */
  async pairs(): Promise<SwapPair[]> {
    const t = this.second();
    const prices = new Map<SwapAsset, SidePrices | null>();
    const price = (asset: SwapAsset) => {
      if (!prices.has(asset)) prices.set(asset, this.priceOf(asset, t));
      return prices.get(asset) ?? null;
    };
    return (await listPairs(this.db)).map((p) => {
      const from = price(p.from);
      const to = price(p.to);
      const rate = from && to ? midRate(from, to) : null;
      return {
        from: p.from,
        to: p.to,
        min: formatMinor(p.minMinor, scaleOf(p.from)),
        max: formatMinor(p.maxMinor, scaleOf(p.from)),
        feeRate: ppmText(p.feePpm),
        rate,
        available: p.enabled && rate !== null,
      };
    });
  }

  /** The pair of a swap, on: 10026 for a swap of an asset into itself, 10015 for a pair switched off. */
  private async openPair(from: SwapAsset, to: SwapAsset): Promise<PairRow> {
    if (from === to) throw new ApiError(Code.INVALID_INPUT, [{ path: 'to', issue: 'same_asset' }]);
    const pair = await pairOfAssets(this.db, from, to);
    if (!pair?.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING, { reason: 'pair' });
    return pair;
  }

  /** Both prices at second t, or 10015 when either market is closed or stale. */
  private pricesAt(from: SwapAsset, to: SwapAsset, t: number): { from: SidePrices; to: SidePrices } {
    const fromPrice = this.priceOf(from, t);
    const toPrice = this.priceOf(to, t);
    if (!fromPrice || !toPrice) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING, { reason: 'market' });
    return { from: fromPrice, to: toPrice };
  }

  /**
   * The one function that checks a swap request and computes its figures at second t (the quote
   * signs exactly these; the commit posts them): pair on, amount within the pair's limits in the
   * `from` asset (10038 / 10039), both prices available (10015), something received (10016).
   */
  private async figuresAt(body: SwapQuoteBody, t: number): Promise<SwapQuoteFigures> {
    const pair = await this.openPair(body.from, body.to);
    const scale = scaleOf(body.from);
    let amount: bigint;
    try {
      amount = parseMinor(body.amount, scale);
    } catch (error) {
      if (error instanceof MoneyFormatError)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'amount', issue: 'too_many_decimals' }]);
      throw error;
    }
    if (amount < pair.minMinor)
      throw new ApiError(Code.BELOW_MINIMUM, {
        asset: body.from,
        minimum: formatMinor(pair.minMinor, scale),
      });
    if (amount > pair.maxMinor)
      throw new ApiError(Code.ABOVE_MAXIMUM, {
        asset: body.from,
        maximum: formatMinor(pair.maxMinor, scale),
      });
    const prices = this.pricesAt(body.from, body.to, t);
    const f = swapFigures({
      amount,
      fromScale: scale,
      toScale: scaleOf(body.to),
      from: prices.from,
      to: prices.to,
      feePpm: pair.feePpm,
    });
    return { from: body.from, to: body.to, ...f, feePpm: pair.feePpm, quoteTime: t };
  }

  /** A quote at the current second, signed for this customer and book; nothing moves. 10011 when the balance cannot pay it now. */
  async quote(book: Book, userId: number, body: SwapQuoteBody): Promise<SwapQuote> {
    const t = this.second();
    const f = await this.figuresAt(body, t);
    const available =
      (await this.ledger.balances(book, userId)).find((b) => b.asset === f.from)?.available ?? 0n;
    if (available < f.amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
    const holder: QuoteHolder = { customerId: userId, book };
    return { ...this.quotes.issue(holder, t, f), ...wireFigures(f) };
  }

  /**
   * Swaps at exactly the figures of the quote the customer accepted, once per request id, or
   * refuses: 10032 expired (a retry of a swap already done answers it), 10011 when the balance no
   * longer covers it (the ledger), 10028 another customer's or the other book's quote, 10015 when
   * the pair was switched off or a market closed since.
   */
  async commit(book: Book, userId: number, body: SwapBody): Promise<SwapRecord> {
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey: `${userId}:${book}:${body.requestId}`,
        replay: async () => {
          const done = await swapByRequest(this.db, userId, book, body.requestId);
          return done ? wireRecord(done) : null;
        },
        post: ({ figures }) => this.post(book, userId, body.requestId, figures),
      },
    );
  }

  /** ONE ledger entry: from: wallet −amount, house +amount; to: house −gross, wallet +receive, fees +fee; the swap attached. */
  private async post(
    book: Book,
    userId: number,
    requestId: string,
    f: SwapQuoteFigures,
  ): Promise<SwapRecord> {
    await this.openPair(f.from, f.to);
    this.pricesAt(f.from, f.to, this.second());
    const postings = await Promise.all(
      swapLegs(f).map(async (leg) => {
        const asset = leg.side === 'from' ? f.from : f.to;
        return {
          accountId:
            leg.role === 'wallet'
              ? await this.ledger.walletAccount(book, userId, asset)
              : await this.ledger.systemAccount(book, asset, leg.role),
          amount: leg.amount,
        };
      }),
    );
    const swap: NewSwap = {
      userId,
      book,
      from: f.from,
      to: f.to,
      amount: f.amount,
      gross: f.gross,
      spread: f.spread,
      fee: f.fee,
      receive: f.receive,
      rate: f.rate,
      price: f.price,
      feePpm: f.feePpm,
      quoteTime: f.quoteTime,
      requestId,
    };
    let entry: EntryResult<SwapRow>;
    try {
      entry = await this.ledger.transfer({
        book,
        kind: 'swap',
        idempotencyKey: `swap:${userId}:${book}:${requestId}`,
        actor: `customer:${userId}`,
        reference: `swap:${requestId}`,
        postings,
        attach: this.records.with(swap),
      });
    } catch (error) {
      // The same request id with another quote: the first swap of that id is the answer.
      if (error instanceof LedgerError && error.reason === 'idempotency_conflict') {
        const first = await swapByRequest(this.db, userId, book, requestId);
        if (first) return wireRecord(first);
      }
      // Insufficient balance reaches the caller as 10011 (ledgerErrorCode).
      throw error;
    }
    // A replay (the same quote and request again) reads what the first one wrote.
    const row = entry.attached ?? (await swapByEntry(this.db, entry.entryId));
    if (!row) throw new Error(`swap of entry ${entry.entryId} missing`);
    return wireRecord(row);
  }

  /** The customer's swaps in a book, newest first, a page below `before`. */
  async history(book: Book, userId: number, before: number | undefined): Promise<SwapRecord[]> {
    return (await swapsOf(this.db, userId, book, before ?? null, SWAP_HISTORY_PAGE)).map(wireRecord);
  }

  // Back office

  async adminPairs(): Promise<SwapPairAdmin[]> {
    return (await listPairs(this.db)).map(wirePairAdmin);
  }

  /**
   * Staff change a pair's limits, fee rate or switch; new quotes use them at once (a quote already
   * given keeps its figures for its few seconds). Audited in the change's transaction.
   */
  async updatePair(staffId: number, body: z.infer<typeof swapPairUpdateBody>): Promise<SwapPairAdmin> {
    if (body.from === body.to) throw new ApiError(Code.INVALID_INPUT, [{ path: 'to', issue: 'same_asset' }]);
    const scale = scaleOf(body.from);
    const amount = (path: 'min' | 'max', text: string) => {
      try {
        return parseMinor(text, scale);
      } catch (error) {
        if (error instanceof MoneyFormatError)
          throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'too_many_decimals' }]);
        throw error;
      }
    };
    const minMinor = amount('min', body.min);
    const maxMinor = amount('max', body.max);
    if (minMinor <= 0n) throw new ApiError(Code.INVALID_INPUT, [{ path: 'min', issue: 'too_small' }]);
    if (maxMinor < minMinor) throw new ApiError(Code.INVALID_INPUT, [{ path: 'max', issue: 'below_min' }]);
    const feePpm = ppmOf(body.feeRate);
    // A fee of 100 % or more would leave nothing to receive.
    if (feePpm >= 1_000_000n) throw new ApiError(Code.INVALID_INPUT, [{ path: 'feeRate', issue: 'too_big' }]);
    await this.db.transaction(async (tx) => {
      const before = await updatePair(tx, {
        from: body.from,
        to: body.to,
        minMinor,
        maxMinor,
        feePpm,
        enabled: body.enabled,
        staffId,
      });
      if (!before) throw new ApiError(Code.NOT_FOUND);
      const { updatedAt: _at, updatedBy: _by, ...was } = wirePairAdmin(before);
      await this.audit.appendInTx(tx, [
        {
          actor: `staff:${staffId}`,
          action: 'swap.pair.updated',
          subject: `swap:${body.from}-${body.to}`,
          data: { before: was, after: body },
        },
      ]);
    });
    const after = await pairOfAssets(this.db, body.from, body.to);
    if (!after) throw new Error(`swap pair ${body.from}-${body.to} missing`);
    return wirePairAdmin(after);
  }
}

/** A quote's figures on the wire (without its id and expiry). */
function wireFigures(f: SwapQuoteFigures): Omit<SwapQuote, 'quoteId' | 'expiresAt'> {
  const from = (v: bigint) => formatMinor(v, scaleOf(f.from));
  const to = (v: bigint) => formatMinor(v, scaleOf(f.to));
  return {
    from: f.from,
    to: f.to,
    amount: from(f.amount),
    rate: f.rate,
    price: f.price,
    spread: to(f.spread),
    gross: to(f.gross),
    feeRate: ppmText(f.feePpm),
    fee: to(f.fee),
    receive: to(f.receive),
    quoteTime: f.quoteTime,
  };
}

function wireRecord(s: SwapRow): SwapRecord {
  const to = (v: bigint) => formatMinor(v, scaleOf(s.to));
  return {
    id: s.id,
    from: s.from,
    to: s.to,
    amount: formatMinor(s.amount, scaleOf(s.from)),
    rate: s.rate,
    price: s.price,
    spread: to(s.spread),
    gross: to(s.gross),
    feeRate: ppmText(s.feePpm),
    fee: to(s.fee),
    receive: to(s.receive),
    entryId: s.entryId,
    createdAt: s.createdAt,
  };
}

function wirePairAdmin(p: PairRow): SwapPairAdmin {
  return {
    from: p.from,
    to: p.to,
    min: formatMinor(p.minMinor, scaleOf(p.from)),
    max: formatMinor(p.maxMinor, scaleOf(p.from)),
    feeRate: ppmText(p.feePpm),
    enabled: p.enabled,
    updatedAt: p.updatedAt,
    updatedBy: p.updatedBy,
  };
}
