import { Code, type Conversion, type Direction, priceTicks, USD } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { formatPrice, type Instrument } from './feed.ts';
import { type PriceSource, simulatedSource } from './source.ts';

/** Prices of one tick in integer ticks at the instrument's decimals, exactly as the market shows them. */
export type TickQuote = { bid: bigint; ask: bigint; mid: bigint };

function ticksOf(instrument: Instrument, value: number): bigint {
  const ticks = priceTicks(formatPrice(instrument, value), instrument.decimals);
  if (ticks === null) throw new Error(`unpriceable ${instrument.code}`);
  return ticks;
}

/**
 * The quote of tick t from the market's price source. Callers check that the instrument is open
 * first; a source with no fresh price (stale, or not priced) refuses rather than price from an
 * old one.
 */
export function tickQuote(
  instrument: Instrument,
  t: number,
  source: PriceSource = simulatedSource,
): TickQuote {
  const q = source.quote(instrument, t);
  if (!q) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
  return {
    bid: ticksOf(instrument, q.bid),
    ask: ticksOf(instrument, q.ask),
    mid: ticksOf(instrument, q.mid),
  };
}

/** A long opens at the ask and closes at the bid; a short the other way round. */
export function openSide(direction: Direction, quote: TickQuote): bigint {
  return direction === 'long' ? quote.ask : quote.bid;
}

export function closeSide(direction: Direction, quote: TickQuote): bigint {
  return direction === 'long' ? quote.bid : quote.ask;
}

/**
 * USD per unit of a quote currency at tick t, from the mid of the pair that prices it against the
 * dollar (USDJPY for JPY, GBPUSD for GBP). USD and USDT are 1 (positions settle at 1 USD = 1 USDT).
 */
export function conversionAt(
  quoteCurrency: string,
  t: number,
  find: (code: string) => Instrument | undefined,
  quote: (instrument: Instrument, t: number) => TickQuote = tickQuote,
): Conversion {
  if (quoteCurrency === 'USD' || quoteCurrency === 'USDT') return USD;
  const direct = find(`${quoteCurrency}USD`);
  if (direct) return { num: quote(direct, t).mid, den: 10n ** BigInt(direct.decimals) };
  const inverse = find(`USD${quoteCurrency}`);
  if (inverse) return { num: 10n ** BigInt(inverse.decimals), den: quote(inverse, t).mid };
  throw new Error(`no USD conversion for ${quoteCurrency}`);
}
