import {
  ASSET_SCALES,
  type Asset,
  formatDisplay,
  LANGUAGE_TAGS,
  type Language,
  parseMinor,
} from '@swx/contract';

/** Minor units of a typed decimal at its asset's scale; null when it cannot be read (or the asset is unknown). */
export function minorOf(amount: string, asset: string): bigint | null {
  const scale = ASSET_SCALES[asset as Asset];
  if (scale === undefined) return null;
  try {
    return parseMinor(amount.trim(), scale);
  } catch {
    return null;
  }
}

/**
 * Formats a decimal string for the reader's locale without passing through a float: Intl's
 * string input keeps every digit. Shows at least two decimals and at most the asset's scale.
 */
export function formatAmount(
  language: Language,
  decimal: string,
  scale: number,
  options: { sign?: boolean } = {},
): string {
  const trimmed = decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
  const fraction = trimmed.split('.')[1]?.length ?? 0;
  const format = new Intl.NumberFormat(LANGUAGE_TAGS[language], {
    minimumFractionDigits: Math.min(2, scale),
    maximumFractionDigits: Math.max(Math.min(2, scale), fraction),
    signDisplay: options.sign ? 'exceptZero' : 'auto',
  });
  return format.format(trimmed as unknown as number);
}

/**
 * An amount of an asset as every screen shows it (balance, record, orders, ticket) and the
 * server's notices say it: the contract's `formatDisplay`, every digit of the asset's scale but
 * its trailing zeros, at least two decimals, in the reader's number format.
 */
export function formatMoney(
  language: Language,
  decimal: string,
  asset: string,
  options: { sign?: boolean } = {},
): string {
  return formatDisplay(language, decimal, asset, options);
}

/** The sign of a decimal string: -1, 0 or 1. */
export function signOf(decimal: string): -1 | 0 | 1 {
  if (/^-/.test(decimal)) return -1;
  return /[1-9]/.test(decimal) ? 1 : 0;
}

/**
 * A ratio as a percentage ("0.001" → "0.1%"), or with `alreadyPercent` a figure that is already
 * in percent ("187.50" → "187.50%"). The decimal point is moved in the string (Intl reads the
 * exponent), so no digit is lost to a float.
 */
export function formatPercent(
  language: Language,
  decimal: string,
  options: { alreadyPercent?: boolean; minimumFractionDigits?: number } = {},
): string {
  const digits = /e/i.test(decimal) ? 8 : (decimal.split('.')[1]?.length ?? 0);
  const shown = options.alreadyPercent ? digits : Math.max(0, digits - 2);
  const format = new Intl.NumberFormat(LANGUAGE_TAGS[language], {
    style: 'percent',
    minimumFractionDigits: options.minimumFractionDigits ?? 0,
    maximumFractionDigits: Math.min(20, Math.max(options.minimumFractionDigits ?? 0, shown)),
  });
  const value = options.alreadyPercent ? `${decimal}e-2` : decimal;
  return format.format(value as unknown as number);
}
