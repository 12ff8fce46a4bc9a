import { ASSET_SCALES, formatMinor, parseMinor } from '@swx/contract';

/**
 * Rates travel as ratios ("0.12" is 12 %, at most 6 decimals); staff type and read them as
 * percentages. Both ways are string and bigint shifts by two places: no float touches a rate.
 */

const RATIO = /^(-?)(\d+)(?:\.(\d{1,6}))?$/;
const PERCENT = /^(\d{1,4})(?:[.,](\d{1,4}))?$/;

/** Drops the zeros a fixed scale leaves ("12.5000" → "12.5", "3.0000" → "3"). */
const trim = (decimal: string) =>
  decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;

/** "0.125" → "12.5"; "-0.0031" → "-0.31"; anything else as it came. */
export function ratioToPercent(ratio: string): string {
  const match = RATIO.exec(ratio);
  if (!match) return ratio;
  const [, minus = '', whole = '0', fraction = ''] = match;
  const millionths = BigInt(whole + fraction.padEnd(6, '0'));
  const percent = trim(formatMinor(millionths, 4));
  return minus && millionths !== 0n ? `-${percent}` : percent;
}

/** "12.5" → "0.125" (a comma is read as the decimal point); null when it is not a percentage with at most 4 decimals. */
export function percentToRatio(percent: string): string | null {
  const match = PERCENT.exec(percent.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return trim(formatMinor(BigInt(whole + fraction.padEnd(4, '0')), 6));
}

/** The sum of two amounts of an asset (decimal strings), exact; null when either is not an amount of it. */
export function addAmounts(asset: keyof typeof ASSET_SCALES, a: string, b: string): string | null {
  const scale = ASSET_SCALES[asset];
  try {
    return trim(formatMinor(parseMinor(a, scale) + parseMinor(b, scale), scale));
  } catch {
    return null;
  }
}
