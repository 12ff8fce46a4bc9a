import {
  DIRECTIONS,
  formatMinor,
  parseCentilots,
  priceTicks,
  profitMinor,
  QUOTE_VALID_SECONDS,
  SETTLEMENT_SCALE,
  type Size,
  type TicketBody,
  type TicketFigures,
} from '@swx/contract';
import { z } from 'zod/mini';
import { bigintText, type QuoteProduct } from '../products/quotes.ts';

/**
 * The figures of an opening quote: everything the position opens with, computed once at the
 * quote's tick by `opening` (positions.open.ts) and carried, signed, in the quote id. The preview
 * shows them (`ticketFigures`) and the commit writes them (`newPosition`, same file); neither
 * recomputes a price.
 */
export const openingQuote = z.object({
  marketId: z.int(),
  direction: z.enum(DIRECTIONS),
  leverage: z.int(),
  autoCloseAfter: z.nullable(z.int()),
  centilots: bigintText,
  lotSize: bigintText,
  decimals: z.int(),
  bidTicks: bigintText,
  askTicks: bigintText,
  openTicks: bigintText,
  stopLossTicks: bigintText,
  takeProfitTicks: bigintText,
  liquidationTicks: bigintText,
  conversionNum: bigintText,
  conversionDen: bigintText,
  notionalMinor: bigintText,
  marginMinor: bigintText,
  feeMinor: bigintText,
  feePpm: bigintText,
  /** The tick (epoch second) the figures are priced at. */
  quoteTime: z.int(),
  /** Stops that would be refused at this tick. */
  unreasonable: z.array(z.enum(['stopLoss', 'takeProfit'])),
  /** A trailing stop's distance and where it starts (the closing price of the quote's tick ∓ it). */
  trailingDistanceTicks: z.optional(z.nullable(bigintText)),
  trailingLevelTicks: z.optional(z.nullable(bigintText)),
});
export type OpeningQuote = z.output<typeof openingQuote>;

/** Opening a position: quotes are valid QUOTE_VALID_SECONDS after their tick. */
export const OPENING: QuoteProduct<typeof openingQuote> = {
  name: 'trading.open.v1',
  validSeconds: QUOTE_VALID_SECONDS,
  figures: openingQuote,
};

export function sizeOf(q: OpeningQuote): Size {
  return { centilots: q.centilots, lotSize: q.lotSize, decimals: q.decimals };
}

/** The figures the ticket and the confirm step show, all from the quote (without its id). */
export function ticketFiguresOf(q: OpeningQuote): Omit<TicketFigures, 'quoteId' | 'issuedAt' | 'expiresAt'> {
  const d = q.decimals;
  const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
  const conversion = { num: q.conversionNum, den: q.conversionDen };
  return {
    quoteTime: q.quoteTime,
    price: formatMinor(q.openTicks, d),
    bid: formatMinor(q.bidTicks, d),
    ask: formatMinor(q.askTicks, d),
    spread: formatMinor(q.askTicks - q.bidTicks, d),
    notional: money(q.notionalMinor),
    margin: money(q.marginMinor),
    fee: money(q.feeMinor),
    cost: money(q.marginMinor + q.feeMinor),
    profitAtTakeProfit: money(
      profitMinor(q.direction, q.openTicks, q.takeProfitTicks, sizeOf(q), conversion),
    ),
    lossAtStopLoss: money(profitMinor(q.direction, q.openTicks, q.stopLossTicks, sizeOf(q), conversion)),
    liquidationPrice: formatMinor(q.liquidationTicks, d),
    unreasonable: q.unreasonable,
    trailingLevel: q.trailingLevelTicks == null ? null : formatMinor(q.trailingLevelTicks, d),
  };
}

/**
 * Is this the ticket that was quoted? The order repeats its ticket; one that differs from the
 * quote's (another instrument, size, leverage, stop or auto-close) is not what was confirmed.
 */
export function sameTicket(q: OpeningQuote, body: TicketBody): boolean {
  return (
    body.marketId === q.marketId &&
    body.direction === q.direction &&
    body.leverage === q.leverage &&
    (body.autoCloseAfter ?? null) === q.autoCloseAfter &&
    parseCentilots(body.lots) === q.centilots &&
    priceTicks(body.stopLoss, q.decimals) === q.stopLossTicks &&
    priceTicks(body.takeProfit, q.decimals) === q.takeProfitTicks &&
    (body.trailingDistance ? priceTicks(body.trailingDistance, q.decimals) : null) ===
      (q.trailingDistanceTicks ?? null)
  );
}
