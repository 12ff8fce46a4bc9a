/**
 * Day and rate arithmetic every product shares (the product kit): UTC days as `YYYY-MM-DD`, rates in
 * millionths (ppm) as bigint, and their decimal-string forms on the wire.
 */

export const PPM = 1_000_000n;
export const DAY_MS = 86_400_000;

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A ppm rate as a decimal ratio string ("0.12" for 120000). */
export function ppmText(ppm: bigint): string {
  const negative = ppm < 0n;
  const abs = negative ? -ppm : ppm;
  const whole = abs / PPM;
  const frac = (abs % PPM).toString().padStart(6, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A decimal ratio ("0.12") as ppm; at most 6 decimals. */
export function ppmOf(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw new Error(`${text} is not a rate`);
  const value = BigInt(match[2] ?? '0') * PPM + BigInt((match[3] ?? '').padEnd(6, '0') || '0');
  return match[1] ? -value : value;
}

/** The daily rate of an annual rate (annual / 365), as ppm rounded down, for display. */
export const dailyPpm = (annualPpm: bigint) => annualPpm / 365n;
