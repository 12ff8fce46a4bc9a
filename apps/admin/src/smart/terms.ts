import type { SmartProduct, SmartStrategy } from '@swx/contract';

/**
 * The timeframes of a smart-plan product as staff type them: whole days separated by commas or
 * spaces (Arabic and CJK commas too), each once, in order. "90, 7 30" → [7, 30, 90]; null when a
 * part is not a number of days (the contract's schema then checks 1 to 3650 and at most 12).
 */
export function daysOf(typed: string): number[] | null {
  const parts = typed.split(/[\s,،、，;]+/).filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !/^\d{1,4}$/.test(p))) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

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
