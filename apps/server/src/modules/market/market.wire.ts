import type { LiveQuote, MarketItem, WireLiveQuote, WireMarketItem } from '@swx/contract';

// The spec's name of the 24 h change (`zdf`, spec §3) is the wire's only: the market's items and
// quotes carry `change`, and take the spec's name here, on their way out (market.routes.ts, the
// quote feed's batches, which the hub writes to /message as they are).

export function itemToWire({ change, ...item }: MarketItem): WireMarketItem {
  return { ...item, zdf: change };
}

export function quoteToWire({ code, price, change }: LiveQuote): WireLiveQuote {
  return { code, price, zdf: change };
}
