import type { SmartProduct, SmartStrategy } from '@swx/contract';
import { daysOf as daysOfKit } from '../KitFields.tsx';

/**
 * The timeframes of a smart-plan product as staff type them: whole days separated by commas or
 * spaces (Arabic and CJK commas too), each once, in order. "90, 7 30" → [7, 30, 90]; null when a
 * part is not a number of days (the contract's schema then checks 1 to 3650 and at most 12). The
 * form reads them so (a `days` list of 4 digits).
 */
export const daysOf = (typed: string): number[] | null => daysOfKit(typed, 4);

/**
 * The instruments each strategy is written for, as the server's strategies declare them (its
 * products' `strategy.instruments` say the same; the server refuses another with `not_for_strategy`).
 * Used for the form's choices before any product of the strategy exists.
 */
const WRITTEN_FOR: Record<SmartStrategy, readonly string[]> = {
  ma_trend: ['BTCUSDT', 'ETHUSDT'],
  mean_reversion: ['EURUSD', 'GBPUSD'],
  breakout: ['XAUUSD', 'XAGUSD'],
};

/** The instruments to offer for a strategy: what the server's products say it is for, else the list above. */
export function instrumentsFor(strategy: SmartStrategy, products: readonly SmartProduct[] = []): string[] {
  const declared = products.find((p) => p.strategy.key === strategy)?.strategy.instruments;
  return [...(declared && declared.length > 0 ? declared : WRITTEN_FOR[strategy])];
}
