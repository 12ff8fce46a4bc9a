import { LANGUAGE_TAGS, type Language } from './languages.ts';

/**
 * Money is an integer count of an asset's minor unit (`bigint`), with a fixed scale per asset.
 * On the wire it is a decimal string. There is no floating point anywhere on this path.
 */
export const ASSET_SCALES = { USDT: 6, USDC: 6, BTC: 8, ETH: 18 } as const;
export type Asset = keyof typeof ASSET_SCALES;

/** Upper bound of any amount: fits PostgreSQL numeric(78,0) and a uint256 with room to spare. */
export const MAX_MINOR = 10n ** 60n;

const DECIMAL = /^(\d{1,60})(?:\.(\d{1,36}))?$/;

/**
 * An amount the customer types, trimmed (wallet.ts `amountInput`): a positive decimal. This and
 * TX_HASH are here, beside the money helpers the first screens load, so that a form checks them
 * without building the wallet's or a product's schemas.
 */
export const AMOUNT_INPUT = /^\d{1,20}(\.\d{1,18})?$/;
/** A transaction hash the customer types as a payment's proof (trimmed): 64 hex digits, 0x or not. */
export const TX_HASH = /^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64})$/;

export class MoneyFormatError extends Error {}

/**
 * Parses a non-negative decimal string into minor units at `scale`. Refuses more fractional
 * digits than the scale allows rather than rounding silently.
 */
export function parseMinor(text: string, scale: number): bigint {
  assertScale(scale);
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new MoneyFormatError(`not a decimal amount: ${JSON.stringify(text)}`);
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > scale && /[1-9]/.test(fraction.slice(scale))) {
    throw new MoneyFormatError(`more than ${scale} decimal places: ${text}`);
  }
  const minor =
    BigInt(whole) * 10n ** BigInt(scale) + BigInt((fraction.slice(0, scale) || '0').padEnd(scale, '0'));
  if (minor > MAX_MINOR) throw new MoneyFormatError('amount out of range');
  return minor;
}

/** Formats minor units as a decimal string with exactly `scale` places (or none when scale is 0). */
export function formatMinor(minor: bigint, scale: number): string {
  assertScale(scale);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/**
 * An amount's value in another asset's minor units at a decimal price, in integers only:
 * minor × price × 10^targetScale / (10^scale × 10^priceDecimals), rounded down.
 */
export function valueAtPrice(minor: bigint, scale: number, price: string, targetScale: number): bigint {
  assertScale(scale);
  assertScale(targetScale);
  const [whole = '0', fraction = ''] = price.split('.');
  const priceInt = BigInt(whole + fraction);
  return (
    (minor * priceInt * 10n ** BigInt(targetScale)) / (10n ** BigInt(scale) * 10n ** BigInt(fraction.length))
  );
}

/**
 * How many decimals a customer sees of each asset, everywhere (balance, record, orders, ticket).
 * The ledger keeps every minor unit (ASSET_SCALES); screens round to this.
 */
export const DISPLAY_SCALES: Record<Asset, number> = { USDT: 2, USDC: 2, BTC: 8, ETH: 8 };

/** The display scale of an asset code; an asset the catalogue does not know shows two decimals. */
export function displayScaleOf(asset: string): number {
  return Object.hasOwn(DISPLAY_SCALES, asset) ? DISPLAY_SCALES[asset as Asset] : 2;
}

const SIGNED_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Rounds a decimal string to exactly `scale` places, half away from zero, in strings and bigints
 * only ("4.525" → "4.53", "-2.775" → "-2.78", "-0.001" → "0.00"). Throws on anything else.
 */
export function roundDecimal(decimal: string, scale: number): string {
  assertScale(scale);
  const match = SIGNED_DECIMAL.exec(decimal);
  if (!match) throw new MoneyFormatError(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const [, minus = '', whole = '0', fraction = ''] = match;
  let minor = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  if ((fraction[scale] ?? '0') >= '5') minor += 1n;
  return formatMinor(minus && minor !== 0n ? -minor : minor, scale);
}

/** An amount of an asset as the customer sees it: rounded to the asset's display scale. */
export function toDisplay(decimal: string, asset: string): string {
  return roundDecimal(decimal, displayScaleOf(asset));
}

/**
 * An amount as records, balances and notices show it: every digit of the asset's scale that is not
 * a trailing zero, at least two decimals ("0.998778" stays, "5000.000000" → "5000.00", "0.020000"
 * BTC → "0.02"). Digits beyond the asset's scale are rounded half away from zero; an asset the
 * catalogue does not know keeps its digits. Throws on anything but a decimal.
 */
export function displayDecimal(decimal: string, asset: string): string {
  const scale = Object.hasOwn(ASSET_SCALES, asset) ? ASSET_SCALES[asset as Asset] : null;
  const match = SIGNED_DECIMAL.exec(decimal);
  if (!match) throw new MoneyFormatError(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const fraction = match[3] ?? '';
  const exact = scale === null || fraction.length <= scale ? decimal : roundDecimal(decimal, scale);
  const [whole = '0', digits = ''] = plainDecimal(exact).split('.');
  const zero = !/[1-9]/.test(whole + digits);
  return `${zero ? whole.replace(/^-/, '') : whole}.${digits.padEnd(2, '0')}`;
}

/**
 * `displayDecimal` in the reader's number format ("5,000.00", "5.000,00"): the one formatter of
 * amounts for the web app's screens and the server's notices. Intl reads the string, so no digit
 * passes through a float.
 */
export function formatDisplay(
  language: Language,
  decimal: string,
  asset: string,
  options: { sign?: boolean } = {},
): string {
  const shown = displayDecimal(decimal, asset);
  const digits = shown.split('.')[1]?.length ?? 2;
  return displayFormat(language, digits, options.sign === true).format(shown as unknown as number);
}

/** The number formats `formatDisplay` has made, by language, digits and sign: making one costs far more than using it. */
const displayFormats = new Map<string, Intl.NumberFormat>();

function displayFormat(language: Language, digits: number, sign: boolean): Intl.NumberFormat {
  const key = `${language}:${digits}:${sign}`;
  let format = displayFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LANGUAGE_TAGS[language], {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: sign ? 'exceptZero' : 'auto',
    });
    displayFormats.set(key, format);
  }
  return format;
}

function assertScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 36) throw new RangeError(`bad scale ${scale}`);
}

/** Decimal price text ↔ ticks at `decimals`; more decimals than the instrument has is refused. */
export function priceTicks(text: string, decimals: number): bigint | null {
  const match = /^(\d{1,20})(?:\.(\d{1,20}))?$/.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals && /[1-9]/.test(fraction.slice(decimals))) return null;
  return BigInt((match[1] ?? '0') + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/** A decimal without the trailing zeros of its scale ("0.200000000000000000" → "0.2"): the same amount. */
export function plainDecimal(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}
