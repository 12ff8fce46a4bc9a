import type { MarketItem } from '@swx/contract';
import { useSyncExternalStore } from 'react';
import { quoteMap, subscribeQuotes } from '../app/quotes.ts';

/** Live quotes from /message, by code (updates once per pushed batch). */
export function useQuoteMap() {
  return useSyncExternalStore(subscribeQuotes, quoteMap);
}

/** A market item with its live price and change when the feed has pushed one (spec §3 nowPrice). */
export function withLive(
  item: MarketItem,
  quotes: ReturnType<typeof useQuoteMap>,
): MarketItem & { nowPrice: string } {
  const live = quotes.get(item.code);
  return live ? { ...item, nowPrice: live.price, zdf: live.zdf } : { ...item, nowPrice: item.price };
}

/** zdf as a percentage with two decimals (spec §3), sign always shown. */
export function percent(zdf: string, locale: string): string {
  const value = Number(zdf) * 100;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(value)}%`;
}

export function direction(zdf: string): 'up' | 'down' | 'flat' {
  const value = Number(zdf);
  return value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
}

/** A price string in the reader's locale, every digit kept. */
export function price(value: string, locale: string): string {
  const decimals = value.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value as unknown as number);
}
