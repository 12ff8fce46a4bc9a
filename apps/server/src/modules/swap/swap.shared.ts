import {
  ASSET_SCALES,
  Code,
  formatMinor,
  type SwapAsset,
  type SwapPairAdmin,
  type SwapQuote,
  type SwapRecord,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { EntryAttachment, LedgerService } from '../ledger/ledger.service.ts';
import type { MarketService } from '../market/market.service.ts';
import { tickQuote } from '../market/pricing.ts';
import { ppmText } from '../products/figures.ts';
import type { Quotes } from '../products/quotes.ts';
import { type SidePrices, USDT_PRICE } from './swap.figures.ts';
import type { SWAP, SwapQuoteFigures } from './swap.quote.ts';
import { type NewSwap, type PairRow, pairOfAssets, type SwapRow } from './swap.repository.ts';

/** The parts every swap use case works with; `SwapService` builds it once. */
export type SwapContext = {
  readonly db: Database;
  readonly ledger: LedgerService;
  readonly market: MarketService;
  readonly audit: AuditService;
  /** Epoch milliseconds (an injected clock in tests). */
  readonly now: () => number;
  readonly quotes: Quotes<typeof SWAP.figures>;
  /** `swap` entries: the swap row written in the entry's transaction. */
  readonly records: EntryAttachment<NewSwap, SwapRow>;
};

export const scaleOf = (asset: SwapAsset) => ASSET_SCALES[asset];

/** The current second of the service's clock. */
export const second = (ctx: SwapContext): number => Math.floor(ctx.now() / 1000);

/**
 * An asset's price in USDT at second t, exactly as the market states it (its `<ASSET>USDT`
 * instrument at that second; USDT is 1); null when it cannot be traded at t: not listed, its
 * market closed or its price stale (the source says so), or no sane price.
 */
export function priceOf(ctx: SwapContext, asset: SwapAsset, t: number): SidePrices | null {
  if (asset === 'USDT') return USDT_PRICE;
  const instrument = ctx.market.instrument(`${asset}USDT`);
  if (!instrument || !ctx.market.isOpen(instrument, t)) return null;
  let quote: ReturnType<typeof tickQuote>;
  try {
    quote = tickQuote(instrument, t, ctx.market.source);
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

/** The pair of a swap, on: 10026 for a swap of an asset into itself, 10015 for a pair switched off. */
export async function openPair(ctx: SwapContext, from: SwapAsset, to: SwapAsset): Promise<PairRow> {
  if (from === to) throw new ApiError(Code.INVALID_INPUT, [{ path: 'to', issue: 'same_asset' }]);
  const pair = await pairOfAssets(ctx.db, from, to);
  if (!pair?.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING, { reason: 'pair' });
  return pair;
}

/** Both prices at second t, or 10015 when either market is closed or stale. */
export function pricesAt(
  ctx: SwapContext,
  from: SwapAsset,
  to: SwapAsset,
  t: number,
): { from: SidePrices; to: SidePrices } {
  const fromPrice = priceOf(ctx, from, t);
  const toPrice = priceOf(ctx, to, t);
  if (!fromPrice || !toPrice) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING, { reason: 'market' });
  return { from: fromPrice, to: toPrice };
}

/** A quote's figures on the wire (without its id and expiry). */
export function wireFigures(f: SwapQuoteFigures): Omit<SwapQuote, 'quoteId' | 'issuedAt' | 'expiresAt'> {
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

export function wireRecord(s: SwapRow): SwapRecord {
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

export function wirePairAdmin(p: PairRow): SwapPairAdmin {
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
