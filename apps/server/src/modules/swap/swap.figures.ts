import { Code, formatMinor } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';

/**
 * The figures of a swap, in exact integer arithmetic (no floating point anywhere): one function
 * for the quote the customer sees and the postings the commit makes (the contract's `swap.ts`
 * header defines them). Prices are decimal strings in USDT per unit, exactly as the market states
 * them; USDT itself is exactly 1 (bid = ask = 1). With p/q rationals:
 *
 *   price   = bid(from) / ask(to)                units of `to` per unit of `from`, after the spread
 *   rate    = mid(from) / mid(to)                mid = (bid + ask) / 2
 *   gross   = floor(amount × price)              in `to` minor units
 *   spread  = floor(amount × rate) − gross       ≥ 0, since bid ≤ mid ≤ ask on both sides
 *   fee     = ceil(gross × feePpm / 10^6)
 *   receive = gross − fee                        refused (10016) when ≤ 0
 *
 * `price` and `rate` are stated as decimal strings with RATIO_DECIMALS places, rounded down (the
 * figures in minor units are computed from the exact ratios, not from these strings).
 */

/** Places of the stated price and rate: enough for BTC→ETH, ETH→BTC and USDT→BTC alike. */
export const RATIO_DECIMALS = 18;

/** A market price in USDT: its bid and ask as exact decimal strings. */
export type SidePrices = { bid: string; ask: string };

/** USDT's own price: exactly 1 on both sides. */
export const USDT_PRICE: SidePrices = { bid: '1', ask: '1' };

export type SwapInput = {
  /** Paid, in the `from` asset's minor units. */
  amount: bigint;
  fromScale: number;
  toScale: number;
  from: SidePrices;
  to: SidePrices;
  /** The fee as millionths of the gross received (1000 = 0.1 %). */
  feePpm: bigint;
};

export type SwapFigures = {
  amount: bigint;
  gross: bigint;
  spread: bigint;
  fee: bigint;
  receive: bigint;
  /** bid(from) / ask(to), RATIO_DECIMALS places, rounded down. */
  price: string;
  /** mid(from) / mid(to), RATIO_DECIMALS places, rounded down. */
  rate: string;
};

/** A non-negative rational n / d (d > 0). */
type Ratio = { n: bigint; d: bigint };

const DECIMAL = /^(\d{1,40})(?:\.(\d{1,40}))?$/;

/** An exact decimal string as a rational. */
export function ratioOf(text: string): Ratio {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`not a decimal price: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  return { n: BigInt((match[1] ?? '0') + fraction), d: 10n ** BigInt(fraction.length) };
}

const div = (a: Ratio, b: Ratio): Ratio => {
  if (b.n === 0n) throw new Error('a price of zero');
  return { n: a.n * b.d, d: a.d * b.n };
};

const midOf = (p: SidePrices): Ratio => {
  const bid = ratioOf(p.bid);
  const ask = ratioOf(p.ask);
  return { n: bid.n * ask.d + ask.n * bid.d, d: 2n * bid.d * ask.d };
};

/** floor(amount × r) converted from one scale to another: amount / 10^fromScale × r × 10^toScale. */
const floorConvert = (amount: bigint, r: Ratio, fromScale: number, toScale: number): bigint =>
  (amount * r.n * 10n ** BigInt(toScale)) / (r.d * 10n ** BigInt(fromScale));

/** A ratio as a decimal string with RATIO_DECIMALS places, rounded down. */
const decimalOf = (r: Ratio): string =>
  formatMinor((r.n * 10n ** BigInt(RATIO_DECIMALS)) / r.d, RATIO_DECIMALS);

/** The mid-market rate of a pair (units of `to` per unit of `from`), as a decimal string. */
export function midRate(from: SidePrices, to: SidePrices): string {
  return decimalOf(div(midOf(from), midOf(to)));
}

/** Every figure of a swap (see the header). Refuses with 10016 an amount that would receive nothing. */
export function swapFigures(input: SwapInput): SwapFigures {
  const price = div(ratioOf(input.from.bid), ratioOf(input.to.ask));
  const rate = div(midOf(input.from), midOf(input.to));
  const gross = floorConvert(input.amount, price, input.fromScale, input.toScale);
  const spread = floorConvert(input.amount, rate, input.fromScale, input.toScale) - gross;
  // ceil(a / b) for a ≥ 0: (a + b − 1) / b.
  const fee = (gross * input.feePpm + 999_999n) / 1_000_000n;
  const receive = gross - fee;
  if (receive <= 0n)
    throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT, [{ path: 'amount', issue: 'nothing_received' }]);
  return {
    amount: input.amount,
    gross,
    spread,
    fee,
    receive,
    price: decimalOf(price),
    rate: decimalOf(rate),
  };
}

/** Who a leg of a swap's entry moves money for: the customer's wallet, the house, the fee account. */
export type SwapRole = 'wallet' | 'house_pnl' | 'fees';
export type SwapLeg = { role: SwapRole; side: 'from' | 'to'; amount: bigint };

/**
 * The postings of a swap, by role and side: in `from`, wallet −amount and house +amount; in `to`,
 * house −gross, wallet +receive and fees +fee (none when the fee is zero). Each side nets to zero.
 */
export function swapLegs(f: Pick<SwapFigures, 'amount' | 'gross' | 'fee' | 'receive'>): SwapLeg[] {
  return [
    { role: 'wallet', side: 'from', amount: -f.amount },
    { role: 'house_pnl', side: 'from', amount: f.amount },
    { role: 'house_pnl', side: 'to', amount: -f.gross },
    { role: 'wallet', side: 'to', amount: f.receive },
    ...(f.fee > 0n ? [{ role: 'fees' as const, side: 'to' as const, amount: f.fee }] : []),
  ];
}
