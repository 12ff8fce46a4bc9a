import { formatDisplay, type Language, MoneyFormatError } from '@swx/contract';

/**
 * Amounts as staff read them: the display rule of the customer app's records, balances and notices
 * (the contract's `formatDisplay`: every digit of the asset's scale that is not a trailing zero, at
 * least two decimals, in the reader's number format), so a figure reads the same on both sides and
 * never as the wire sends it ("5000.000000"). Strings all the way: no float touches an amount.
 */

/** The number alone ("5,000.00"); a text that is not a decimal is shown as it came. */
export function shownAmount(
  language: Language,
  value: string,
  asset: string,
  options: { sign?: boolean } = {},
) {
  try {
    return formatDisplay(language, value, asset, options);
  } catch (error) {
    if (error instanceof MoneyFormatError) return value;
    throw error;
  }
}

/** The amount with its asset ("5,000.00 USDT"). */
export function amountText(
  language: Language,
  value: string,
  asset: string,
  options: { sign?: boolean } = {},
) {
  return `${shownAmount(language, value, asset, options)} ${asset}`;
}

/** A range of an asset ("100.00 – 5,000.00 USDT"). */
export function rangeText(language: Language, min: string, max: string, asset: string): string {
  return `${shownAmount(language, min, asset)} – ${amountText(language, max, asset)}`;
}
