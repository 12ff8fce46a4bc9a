import type { LiveQuote, MarketItem, WireLiveQuote, WireMarketItem } from '@swx/contract';

// The spec's name of the 24 h change (`zdf`, spec §3) is the wire's only: the app reads it here,
// as an item arrives (queries.ts) and as a quote is pushed (app/quotes.ts), and calls it `change`.

export function itemFromWire({ zdf, ...item }: WireMarketItem): MarketItem {
  return { ...item, change: zdf };
}

export function quoteFromWire({ code, price, zdf }: WireLiveQuote): LiveQuote {
  return { code, price, change: zdf };
}
