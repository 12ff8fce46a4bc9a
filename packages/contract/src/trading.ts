import { z } from 'zod/mini';
import { wireId, wireInt } from './ids.ts';
import { bookSchema, decimalString } from './ledger.ts';
import { priceString } from './market.ts';
import { quoteFields, quoteId } from './quotes.ts';

/**
 * Leveraged positions (DESIGN §2 rule 6): priced from the market with the stated spread and fee;
 * profit is the real price move times size. The arithmetic below is the only place the figures of
 * a position are computed: the server fills and settles with it, and every figure the ticket
 * shows comes from the server running it. Integers only (bigint), no floating point.
 */

export const DIRECTIONS = ['long', 'short'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * Why a position closed. `signal` and `drawdown` close only smart-plan positions: the plan's
 * strategy gave the opposite or an exit signal, or the plan's drawdown stop fired.
 * `trailing_stop`: the price came back to the position's trailing stop.
 */
export const CLOSE_REASONS = [
  'manual',
  'take_profit',
  'stop_loss',
  'stop_out',
  'expiry',
  'signal',
  'drawdown',
  'trailing_stop',
] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** Auto-close choices in seconds: the spec's "period" becomes an optional auto-close time. */
export const AUTO_CLOSE_CHOICES = [3600, 14_400, 86_400, 604_800, 2_592_000] as const;

/** A position is closed when its margin level (equity ÷ margin) falls to 50 % or below. */
export const STOP_OUT_PERCENT = 50n;

/** Positions settle in USDT (scale 6), at 1 USD = 1 USDT. */
export const SETTLEMENT_ASSET = 'USDT';
export const SETTLEMENT_SCALE = 6;

const lotsString = z.string().check(z.regex(/^\d{1,6}(\.\d{1,2})?$/));

/** What an instrument's positions are made of, stated before anyone trades it. */
export const tradingTerms = z.object({
  id: z.int(),
  code: z.string(),
  /** Units of the instrument in one lot (coins, shares, ounces, currency units, contracts). */
  lotSize: z.string(),
  minLots: lotsString,
  maxLots: lotsString,
  lotStep: lotsString,
  leverages: z.array(z.int()),
  maxLeverage: z.int(),
  /** Fee as a ratio of the notional, charged once when the position opens (e.g. "0.001" = 0.1 %). */
  feeRate: z.string(),
  /** Bid-ask spread as a ratio of the mid price. */
  spreadRate: z.string(),
  quoteCurrency: z.string(),
  priceDecimals: z.int(),
  stopOutPercent: z.int(),
  autoCloseChoices: z.array(z.int()),
  open: z.boolean(),
});
export type TradingTerms = z.infer<typeof tradingTerms>;

export const ticketBody = z.object({
  marketId: z.int().check(z.minimum(1)),
  direction: z.enum(DIRECTIONS),
  lots: lotsString,
  leverage: z.int().check(z.minimum(1), z.maximum(1000)),
  stopLoss: priceString,
  takeProfit: priceString,
  /** Seconds after opening at which the position closes by itself; one of AUTO_CLOSE_CHOICES. */
  autoCloseAfter: z.optional(z.nullable(z.int())),
  /**
   * A trailing stop: its distance in price terms (at the instrument's price decimals, above zero).
   * It starts that far from the closing price and follows every favourable move, never moving back.
   */
  trailingDistance: z.optional(z.nullable(priceString)),
});
export type TicketBody = z.infer<typeof ticketBody>;

/**
 * A quote stays valid for this many seconds after its tick (`expiresAt` = `quoteTime` + this); a
 * later confirm is refused with 10032 (the confirm step fetches new figures before that and asks
 * again).
 */
export const QUOTE_VALID_SECONDS = 3;

/**
 * Opening a position confirms one quote: `quoteId` names the signed figures of the preview, and
 * the position opens at exactly those (or is refused). The ticket is sent again and must be the
 * one quoted.
 */
export const openBody = z.extend(ticketBody, {
  quoteId,
  /** Chosen by the client once per order, so a retried request opens one position. */
  requestId: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
});
export type OpenBody = z.infer<typeof openBody>;

/** Every figure of a ticket at one tick, as the position would open, and the quote that opens it. */
export const ticketFigures = z.object({
  ...quoteFields,
  quoteTime: z.int(),
  price: priceString,
  bid: priceString,
  ask: priceString,
  spread: priceString,
  notional: decimalString,
  margin: decimalString,
  fee: decimalString,
  /** Margin plus fee: what leaves the available balance. */
  cost: decimalString,
  profitAtTakeProfit: decimalString,
  lossAtStopLoss: decimalString,
  liquidationPrice: priceString,
  /** Which of the stops would be refused at this tick (the ticket says so before submitting). */
  unreasonable: z.array(z.enum(['stopLoss', 'takeProfit'])),
  /** Where the trailing stop starts (the closing price less, for a short plus, its distance). */
  trailingLevel: z.optional(z.nullable(priceString)),
});
export type TicketFigures = z.infer<typeof ticketFigures>;

export const positionView = z.object({
  id: z.int(),
  orderNo: z.string(),
  marketId: z.int(),
  code: z.string(),
  book: bookSchema,
  direction: z.enum(DIRECTIONS),
  lots: lotsString,
  leverage: z.int(),
  openPrice: priceString,
  closePrice: z.nullable(priceString),
  openTime: z.string(),
  closeTime: z.nullable(z.string()),
  stopLoss: priceString,
  takeProfit: priceString,
  /** The trailing stop's distance, and its level now (it only ever tightens); null without one. */
  trailingDistance: z.optional(z.nullable(priceString)),
  trailingLevel: z.optional(z.nullable(priceString)),
  autoCloseAt: z.nullable(z.string()),
  notional: decimalString,
  margin: decimalString,
  fee: decimalString,
  /** Profit at the take-profit price (the spec's "expected return"). */
  expectedReturn: decimalString,
  lossAtStopLoss: decimalString,
  liquidationPrice: priceString,
  status: z.enum(['open', 'closed']),
  closeReason: z.nullable(z.enum(CLOSE_REASONS)),
  /** Realised profit (negative for a loss) once closed; the live figure while open. */
  profit: decimalString,
  /** Of a loss beyond the margin, what the house absorbed (negative balance protection). */
  absorbed: decimalString,
  /** While open: the price it would close at now and its margin level in percent. */
  markPrice: z.nullable(priceString),
  marginLevel: z.nullable(z.string()),
});
export type Position = z.infer<typeof positionView>;

export const orderIdParams = z.object({
  id: wireId(),
});
export const orderIdBody = z.object({ id: z.int().check(z.minimum(1)) });
export const updateOrderBody = z.object({
  id: z.int().check(z.minimum(1)),
  stopLoss: priceString,
  takeProfit: priceString,
  /**
   * The trailing stop's distance: absent keeps it as it is, null removes it; a new distance starts
   * it again from the current closing price (the same distance keeps its level).
   */
  trailingDistance: z.optional(z.nullable(priceString)),
});
export const orderListQuery = z.object({
  status: z.optional(z.enum(['open', 'closed'])),
  page: z.optional(wireInt(1, 100_000)),
  size: z.optional(wireInt(1, 100)),
});
export const orderPage = z.object({
  items: z.array(positionView),
  total: z.int(),
  page: z.int(),
  size: z.int(),
});
export type OrderPage = z.infer<typeof orderPage>;

// ---------------------------------------------------------------------------------------------
// The arithmetic. A price is an integer count of ticks at the instrument's price decimals; a size
// is hundredths of a lot (`centilots`) times `lotSize` units; amounts are USDT minor units.

/** USD per one unit of the quote currency, as a ratio (1/1 for USD and USDT). */
export type Conversion = { num: bigint; den: bigint };
export const USD: Conversion = { num: 1n, den: 1n };

export type Size = {
  centilots: bigint;
  lotSize: bigint;
  decimals: number;
};

const SCALE = 10n ** BigInt(SETTLEMENT_SCALE);

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** The denominator that turns ticks × centilots × lotSize × conversion into USDT minor units. */
function denominator(size: Size, conversion: Conversion): bigint {
  return 100n * 10n ** BigInt(size.decimals) * conversion.den;
}

/** Value in USDT minor units of `ticks` of price for the whole size, rounded down. */
export function valueMinor(ticks: bigint, size: Size, conversion: Conversion): bigint {
  return floorDiv(
    ticks * size.centilots * size.lotSize * conversion.num * SCALE,
    denominator(size, conversion),
  );
}

/** Profit (negative: loss) of a move from `open` to `close`, rounded down: the rest stays with the house. */
export function profitMinor(
  direction: Direction,
  openTicks: bigint,
  closeTicks: bigint,
  size: Size,
  conversion: Conversion,
): bigint {
  const move = direction === 'long' ? closeTicks - openTicks : openTicks - closeTicks;
  return valueMinor(move, size, conversion);
}

export type OpeningFigures = {
  notionalMinor: bigint;
  marginMinor: bigint;
  feeMinor: bigint;
  liquidationTicks: bigint;
};

/**
 * Notional (rounded down), margin = notional ÷ leverage and fee = notional × rate (both rounded
 * up), and the stop-out price: the first price at which margin + profit ≤ margin × 50 %.
 */
export function openingFigures(
  direction: Direction,
  openTicks: bigint,
  size: Size,
  conversion: Conversion,
  leverage: bigint,
  feePpm: bigint,
): OpeningFigures {
  const notionalMinor = valueMinor(openTicks, size, conversion);
  const marginMinor = ceilDiv(notionalMinor, leverage);
  const feeMinor = ceilDiv(notionalMinor * feePpm, 1_000_000n);
  return {
    notionalMinor,
    marginMinor,
    feeMinor,
    liquidationTicks: liquidationTicks(direction, openTicks, marginMinor, size, conversion),
  };
}

/**
 * The stop-out price: the first price (in ticks) at which the loss reaches margin × (100 − 50) %,
 * i.e. the margin level falls to 50 %. It depends on the conversion of the quote currency.
 */
export function liquidationTicks(
  direction: Direction,
  openTicks: bigint,
  marginMinor: bigint,
  size: Size,
  conversion: Conversion,
): bigint {
  const allowedLoss = ceilDiv(marginMinor * (100n - STOP_OUT_PERCENT), 100n);
  const perTick = size.centilots * size.lotSize * conversion.num * SCALE;
  const moveTicks = perTick === 0n ? 0n : ceilDiv(allowedLoss * denominator(size, conversion), perTick);
  const ticks = direction === 'long' ? openTicks - moveTicks : openTicks + moveTicks;
  return ticks < 0n ? 0n : ticks;
}

/** Margin level in percent (two decimals, as a string) of a margin and a profit. */
export function marginLevelPercent(marginMinor: bigint, profit: bigint): string {
  if (marginMinor <= 0n) return '0.00';
  const hundredths = floorDiv((marginMinor + profit) * 10_000n, marginMinor);
  const negative = hundredths < 0n;
  const abs = negative ? -hundredths : hundredths;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Is the position at or below the stop-out margin level? */
export function isStoppedOut(marginMinor: bigint, profit: bigint): boolean {
  return (marginMinor + profit) * 100n <= marginMinor * STOP_OUT_PERCENT;
}

export type Settlement = {
  /** What returns to the wallet: margin + profit, never below zero. */
  payoutMinor: bigint;
  /** The part of a loss beyond the margin, absorbed by the house (negative balance protection). */
  absorbedMinor: bigint;
};

export function settlement(marginMinor: bigint, profit: bigint): Settlement {
  const payout = marginMinor + profit;
  return payout >= 0n
    ? { payoutMinor: payout, absorbedMinor: 0n }
    : { payoutMinor: 0n, absorbedMinor: -payout };
}

export type StopCheck = { stopLoss: boolean; takeProfit: boolean };

/**
 * Which of a stop loss and a take profit are unreasonable for a position that would close now at
 * `closeTicks`: a stop loss must sit between the stop-out price and the current closing price, a
 * take profit beyond the current closing price (and above zero).
 */
export function unreasonableStops(
  direction: Direction,
  closeTicks: bigint,
  liquidationTicks: bigint,
  stopLossTicks: bigint,
  takeProfitTicks: bigint,
): StopCheck {
  if (direction === 'long') {
    return {
      stopLoss: !(stopLossTicks < closeTicks && stopLossTicks > liquidationTicks),
      takeProfit: !(takeProfitTicks > closeTicks),
    };
  }
  return {
    stopLoss: !(stopLossTicks > closeTicks && stopLossTicks < liquidationTicks),
    takeProfit: !(takeProfitTicks < closeTicks && takeProfitTicks > 0n),
  };
}

/** "1.25" lots → 125 centilots; null when not a multiple of 0.01. */
export function parseCentilots(text: string): bigint | null {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0') || '0');
}

/**
 * A trailing stop's level after a closing price: it follows a favourable move at its distance and
 * never moves back (a long: max(level, bid − distance); a short: min(level, ask + distance)). A
 * new trailing stop starts from `null`.
 */
export function trailedLevel(
  direction: Direction,
  level: bigint | null,
  closeTicks: bigint,
  distanceTicks: bigint,
): bigint {
  const follow = direction === 'long' ? closeTicks - distanceTicks : closeTicks + distanceTicks;
  if (level === null) return follow;
  return direction === 'long' ? (follow > level ? follow : level) : follow < level ? follow : level;
}

/** Has the closing price come back to a trailing stop's level (a long's bid at or below it, a short's ask at or above)? */
export function trailingCrossed(direction: Direction, level: bigint, closeTicks: bigint): boolean {
  return direction === 'long' ? closeTicks <= level : closeTicks >= level;
}

/** Is a trailing distance usable at this closing price: above zero, and leaving a level above zero? */
export function trailingDistanceValid(
  direction: Direction,
  closeTicks: bigint,
  distanceTicks: bigint,
): boolean {
  return distanceTicks > 0n && (direction === 'short' || distanceTicks < closeTicks);
}
