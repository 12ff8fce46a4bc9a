import { LANGUAGE_TAGS, type Language } from '@swx/contract';

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

/** The sign of a decimal string: -1, 0 or 1. */
export function signOf(decimal: string): -1 | 0 | 1 {
  if (/^-/.test(decimal)) return -1;
  return /[1-9]/.test(decimal) ? 1 : 0;
}
