import { ASSET_SCALES, type Asset } from '@swx/contract';
import { formatNumber, formatUtcDay, formatUtcTime } from './i18n.ts';
import { formatAmount, formatMoney } from './money.ts';
import { useClientState } from './state.ts';

/**
 * The reader's formatters of a product's figures, which each product's own hook extends (earn,
 * loans, smart plans, swap). Each amount is a left-to-right isolate, so number and asset stay
 * together, in this order, inside Arabic text; `glue` joins them (a no-break space keeps them on
 * one line). Times are UTC, as the products' days are.
 */
export function useFigureFormat(glue = ' ') {
  const language = useClientState((s) => s.language);
  return {
    language,
    /** An amount as every screen shows it (`formatMoney`): cards, summaries, balances. */
    money: (amount: string, asset: string) =>
      `\u2066${formatMoney(language, amount, asset)}${glue}${asset}\u2069`,
    /** An amount with every digit the server gave: a quote's figures are the figures applied. */
    exact: (amount: string, asset: string) =>
      `\u2066${formatAmount(language, amount, ASSET_SCALES[asset as Asset] ?? 8)}${glue}${asset}\u2069`,
    date: (value: string) => formatUtcTime(language, value),
    day: (value: string) => formatUtcDay(language, value),
    count: (value: number) => formatNumber(language, value),
  };
}
