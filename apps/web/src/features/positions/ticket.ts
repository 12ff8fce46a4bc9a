import {
  type Direction,
  formatMinor,
  parseCentilots,
  type StopCheck,
  type TicketBody,
  type TradingTerms,
} from '@swx/contract';
import { normalizeDecimal } from '../../ui/decimalInput.ts';

/**
 * The order ticket's rules on the client: what the user typed → a ticket body the server can price,
 * default stop loss and take profit, and which stop messages to show. Prices and lots are integers
 * (ticks, centilots) here; nothing goes through a JS number.
 */

/** Ticks of a decimal price at `decimals`, truncating extra digits (for prices the server sent). */
export function ticksOf(price: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = price.split('.');
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/** A typed price → ticks, or null when it is not a positive price with at most `decimals` places. */
export function parsePrice(text: string, decimals: number): bigint | null {
  const normalized = normalizeDecimal(text);
  const match = /^(\d{1,20})(?:\.(\d{0,20}))?$/.exec(normalized);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  const ticks = BigInt((match[1] ?? '0') + fraction.padEnd(decimals, '0'));
  return ticks > 0n ? ticks : null;
}

export type Stops = { stopLoss: string; takeProfit: string };

/**
 * Default stop loss and take profit so the ticket works at once: take profit 2 % beyond the price
 * the position would close at now, stop loss 1 % on the losing side, but never past halfway to the
 * stop-out price (at high leverage 1 % would already be stopped out), rounded to the instrument's
 * price decimals. A long opens at the ask and closes at the bid; a short the other way round.
 * A stop that cannot be placed sensibly is left empty for the user to enter.
 */
export function defaultStops(
  direction: Direction,
  bid: string,
  ask: string,
  leverage: number,
  terms: Pick<TradingTerms, 'priceDecimals' | 'stopOutPercent'>,
): Stops {
  const decimals = terms.priceDecimals;
  const bidTicks = ticksOf(bid, decimals);
  const askTicks = ticksOf(ask, decimals);
  const long = direction === 'long';
  const openTicks = long ? askTicks : bidTicks;
  const closeTicks = long ? bidTicks : askTicks;
  if (openTicks <= 0n || closeTicks <= 0n || leverage < 1) return { stopLoss: '', takeProfit: '' };
  // Move of the open price that loses (100 − stop-out) % of the margin: open × (1 − so%) ÷ leverage.
  const toStopOut = (openTicks * BigInt(100 - terms.stopOutPercent)) / (100n * BigInt(leverage));
  // From the closing price the stop-out is nearer by the spread.
  const room = toStopOut - (askTicks - bidTicks);
  const onePercent = closeTicks / 100n;
  const lossTicks = onePercent < room / 2n ? onePercent : room / 2n;
  const twoPercent = (closeTicks * 2n) / 100n;
  const profitTicks = twoPercent > 0n ? twoPercent : 1n;
  const stopLoss = lossTicks >= 1n ? (long ? closeTicks - lossTicks : closeTicks + lossTicks) : null;
  const takeProfit = long ? closeTicks + profitTicks : closeTicks - profitTicks;
  return {
    stopLoss: stopLoss !== null && stopLoss > 0n ? formatMinor(stopLoss, decimals) : '',
    takeProfit: takeProfit > 0n ? formatMinor(takeProfit, decimals) : '',
  };
}

export type TicketInput = {
  direction: Direction;
  lots: string;
  leverage: number;
  stopLoss: string;
  takeProfit: string;
  autoCloseAfter: number | null;
  /** A trailing stop's distance in price terms; empty for none. */
  trailingDistance?: string;
};

export type TicketError =
  | { field: 'lots'; key: 'enterLots' | 'lotsRange' }
  | { field: 'stopLoss'; key: 'enterStopLoss' | 'priceFormat' }
  | { field: 'takeProfit'; key: 'enterTakeProfit' | 'priceFormat' }
  | { field: 'trailingDistance'; key: 'priceFormat' };

/**
 * A typed trailing distance: '' for none (empty), the distance at the decimals, or null when it
 * is not a positive price with at most `decimals` places.
 */
export function readTrailing(text: string | undefined, decimals: number): string | null {
  const typed = (text ?? '').trim();
  if (typed === '') return '';
  const ticks = parsePrice(typed, decimals);
  return ticks === null ? null : formatMinor(ticks, decimals);
}

export type TicketCheck = { body: TicketBody | null; errors: TicketError[] };

/** Lots as centilots when within the terms (min, max, step), else null. */
export function lotsWithin(text: string, terms: Pick<TradingTerms, 'minLots' | 'maxLots' | 'lotStep'>) {
  const centilots = parseCentilots(normalizeDecimal(text));
  const min = parseCentilots(terms.minLots) ?? 1n;
  const max = parseCentilots(terms.maxLots) ?? min;
  const step = parseCentilots(terms.lotStep) ?? 1n;
  if (centilots === null || centilots < min || centilots > max) return null;
  return step > 0n && centilots % step !== 0n ? null : centilots;
}

/** Checks the typed ticket (the spec's messages: enter stop loss, enter take profit) and builds its body. */
export function checkTicket(input: TicketInput, terms: TradingTerms): TicketCheck {
  const errors: TicketError[] = [];
  const decimals = terms.priceDecimals;
  let centilots: bigint | null = null;
  if (input.lots.trim() === '') errors.push({ field: 'lots', key: 'enterLots' });
  else {
    centilots = lotsWithin(input.lots, terms);
    if (centilots === null) errors.push({ field: 'lots', key: 'lotsRange' });
  }
  const stopLoss = input.stopLoss.trim() === '' ? null : parsePrice(input.stopLoss, decimals);
  if (input.stopLoss.trim() === '') errors.push({ field: 'stopLoss', key: 'enterStopLoss' });
  else if (stopLoss === null) errors.push({ field: 'stopLoss', key: 'priceFormat' });
  const takeProfit = input.takeProfit.trim() === '' ? null : parsePrice(input.takeProfit, decimals);
  if (input.takeProfit.trim() === '') errors.push({ field: 'takeProfit', key: 'enterTakeProfit' });
  else if (takeProfit === null) errors.push({ field: 'takeProfit', key: 'priceFormat' });
  const trailing = readTrailing(input.trailingDistance, decimals);
  if (trailing === null) errors.push({ field: 'trailingDistance', key: 'priceFormat' });
  const leverageOk = terms.leverages.includes(input.leverage);
  const autoCloseOk = input.autoCloseAfter === null || terms.autoCloseChoices.includes(input.autoCloseAfter);
  if (
    errors.length > 0 ||
    centilots === null ||
    stopLoss === null ||
    takeProfit === null ||
    trailing === null
  ) {
    return { body: null, errors };
  }
  if (!leverageOk || !autoCloseOk) return { body: null, errors };
  return {
    body: {
      marketId: terms.id,
      direction: input.direction,
      lots: formatMinor(centilots, 2),
      leverage: input.leverage,
      stopLoss: formatMinor(stopLoss, decimals),
      takeProfit: formatMinor(takeProfit, decimals),
      autoCloseAfter: input.autoCloseAfter,
      ...(trailing ? { trailingDistance: trailing } : {}),
    },
    errors,
  };
}

/** Lots one step up or down, kept within the terms. */
export function stepLots(
  text: string,
  delta: 1 | -1,
  terms: Pick<TradingTerms, 'minLots' | 'maxLots' | 'lotStep'>,
): string {
  const min = parseCentilots(terms.minLots) ?? 1n;
  const max = parseCentilots(terms.maxLots) ?? min;
  const parsedStep = parseCentilots(terms.lotStep) ?? 1n;
  const step = parsedStep > 0n ? parsedStep : 1n;
  const current = parseCentilots(normalizeDecimal(text));
  if (current === null) return formatMinor(min, 2);
  // Up from 0.37 with a step of 0.05 is 0.40; down is 0.35: the next multiple of the step that way.
  const floor = (current / step) * step;
  const ceil = floor === current ? current : floor + step;
  let next = delta > 0 ? floor + step : ceil - step;
  if (next < min) next = min;
  if (next > max) next = max;
  return formatMinor(next, 2);
}

/** The preview's verdict on the stops (`unreasonable: ['stopLoss']`) as a check. */
export function stopsOfFigures(unreasonable: readonly string[]): StopCheck {
  return { stopLoss: unreasonable.includes('stopLoss'), takeProfit: unreasonable.includes('takeProfit') };
}

/** Does a refusal's data (`[{path: 'trailingDistance', issue}]`) say the trailing distance is refused? */
export function trailingIssue(data: unknown): boolean {
  const issues = Array.isArray(data) ? data : (data as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return false;
  return issues.some((item) => (item as { path?: unknown } | null)?.path === 'trailingDistance');
}

/**
 * The unreasonable stops in a 10026 refusal's data: `[{path: 'stopLoss', issue: 'unreasonable'}]`
 * (also accepted wrapped as `{issues: [...]}`). Other issues are not about reasonableness.
 */
export function stopIssues(data: unknown): StopCheck | null {
  const issues = Array.isArray(data) ? data : (data as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return null;
  const check: StopCheck = { stopLoss: false, takeProfit: false };
  for (const item of issues) {
    const { path, issue } = (item ?? {}) as { path?: unknown; issue?: unknown };
    if (issue !== 'unreasonable') continue;
    if (path === 'stopLoss') check.stopLoss = true;
    if (path === 'takeProfit') check.takeProfit = true;
  }
  return check.stopLoss || check.takeProfit ? check : null;
}

/** Which of the three stop messages applies: stop loss, take profit, or both. */
export function stopMessage(check: StopCheck | null): 'stopLoss' | 'takeProfit' | 'both' | null {
  if (!check) return null;
  if (check.stopLoss && check.takeProfit) return 'both';
  if (check.stopLoss) return 'stopLoss';
  return check.takeProfit ? 'takeProfit' : null;
}

const AUTO_CLOSE_KEYS: Record<number, string> = {
  3600: 'hour1',
  14400: 'hours4',
  86400: 'day1',
  604800: 'week1',
  2592000: 'days30',
};

/** The locale key of an auto-close choice (1 h, 4 h, 1 day, 1 week, 30 days), or null for others. */
export function autoCloseKey(seconds: number): string | null {
  return AUTO_CLOSE_KEYS[seconds] ?? null;
}
