import { ASSET_SCALES, type Asset, formatMinor, parseMinor } from '@swx/contract';

/**
 * The auction arithmetic the page shows before a bid (the server judges the bid itself,
 * modules/nft/nft.auction.ts): the least next bid, the end after a late bid, and the time left
 * counted down on the reader's clock from what the server said was left when it answered (so a
 * device clock that is off does not move the end).
 */

const scaleOf = (asset: string): number => ASSET_SCALES[asset as Asset] ?? 6;

/**
 * Least a next bid may be, as a decimal of the asset: the start price first, then the current
 * bid plus `minIncrementBps` of it, rounded up to the asset's minor unit (and at least one unit).
 */
export function minNextBid(
  rules: { startPrice: string; minIncrementBps: number },
  currentBid: string | null,
  asset: string,
): string {
  const scale = scaleOf(asset);
  if (currentBid === null) return formatMinor(parseMinor(rules.startPrice, scale), scale);
  const current = parseMinor(currentBid, scale);
  const step = (current * BigInt(rules.minIncrementBps) + 9_999n) / 10_000n;
  return formatMinor(current + (step > 0n ? step : 1n), scale);
}

/** Is `amount` a bid the rules take (at least the least next bid)? False when it is not a number. */
export function bidReaches(amount: string, least: string, asset: string): boolean {
  const scale = scaleOf(asset);
  try {
    return parseMinor(amount.trim(), scale) >= parseMinor(least, scale);
  } catch {
    return false;
  }
}

/** The end (epoch ms) after a bid at `now`: a bid in the last `extensionSeconds` moves it to that long after the bid. */
export function endAfterBid(endsAt: number, now: number, extensionSeconds: number): number {
  const extension = extensionSeconds * 1000;
  return endsAt - now < extension ? now + extension : endsAt;
}

/** The end on this device's clock: `remainingSeconds` as the server counted when it answered at `receivedAt`. */
export function deadlineOf(remainingSeconds: number, receivedAt: number): number {
  return receivedAt + remainingSeconds * 1000;
}

export type CountdownParts = { days: number; hours: number; minutes: number; seconds: number };

/** Whole days, hours, minutes and seconds left (rounded up to the second: 0 only at the end). */
export function countdownParts(leftMs: number): CountdownParts {
  const total = Math.max(0, Math.ceil(leftMs / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The clock part of a countdown: `HH:MM:SS` (the days are worded apart, in the reader's language). */
export function clockText(parts: CountdownParts): string {
  return `${two(parts.hours)}:${two(parts.minutes)}:${two(parts.seconds)}`;
}

/**
 * What a screen reader is told of a countdown, and how often: every minute while more than ten
 * minutes are left, every ten seconds in the last ten minutes (the extension window), every second
 * in the last ten. Answers the step the announcement belongs to (it changes when one is due).
 */
export function announceStep(leftMs: number): number {
  const left = Math.max(0, Math.ceil(leftMs / 1000));
  if (left > 600) return Math.ceil(left / 60) * 60;
  if (left > 10) return Math.ceil(left / 10) * 10;
  return left;
}

/** A share in basis points as a percentage text without a float ("5", "2.5", "100"). */
export function percentOfBps(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}
