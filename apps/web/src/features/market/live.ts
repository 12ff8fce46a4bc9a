import { formatMinor, type MarketItem, priceTicks } from '@swx/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { numberFormat } from '../../app/numberFormat.ts';
import { latestQuote, subscribeQuotes, watchQuote } from '../../app/quotes.ts';

/**
 * One instrument's latest quote from /message, asked for while the caller is mounted (what is on
 * screen); the caller re-renders only when that quote changes. An empty code asks for nothing.
 */
export function useQuote(code: string) {
  useEffect(() => (code ? watchQuote(code) : undefined), [code]);
  const quote = () => latestQuote(code);
  // A screen drawn before the app (the build, or the server with its data) has no live quote: the
  // app takes it over as drawn, then shows what the socket pushed meanwhile. Answering the live
  // quote while taking over would differ from the drawn text (React's error 418 on a slow device).
  return useSyncExternalStore(subscribeQuotes, quote, noQuote);
}

const noQuote = () => undefined;

/**
 * An item's live price and change when the feed has pushed one (spec §3 nowPrice). A closed
 * market keeps the server's figures (its last close and the change of its last day of trading),
 * whatever the socket pushed before it closed, so the list and the instrument page agree.
 */
export function useLive(item: MarketItem): { nowPrice: string; change: string } {
  const live = useQuote(item.code);
  return item.open && live
    ? { nowPrice: live.price, change: live.change }
    : { nowPrice: item.price, change: item.change };
}

/** One quote of one tick: bid, ask and the mid between them, so the headline always sits inside. */
export type Quote = { bid: string; ask: string; mid: string };

/**
 * The quote of one tick from its bid and ask (price strings at the instrument's decimals): the
 * mid is computed from them, rounded down to the same decimals, so bid ≤ mid ≤ ask holds exactly.
 */
export function quoteOf(bid: string, ask: string): Quote {
  const decimals = Math.max(bid.split('.')[1]?.length ?? 0, ask.split('.')[1]?.length ?? 0);
  const b = priceTicks(bid, decimals);
  const a = priceTicks(ask, decimals);
  if (b === null || a === null) return { bid, ask, mid: bid };
  return { bid, ask, mid: formatMinor((b + a) / 2n, decimals) };
}

/** A 24 h change (a ratio) as a percentage with two decimals (spec §3), sign always shown. */
export function percent(change: string, locale: string): string {
  const value = Number(change) * 100;
  return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(value)}%`;
}

export function direction(change: string): 'up' | 'down' | 'flat' {
  const value = Number(change);
  return value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
}

/** A price string in the reader's locale, every digit kept. */
export function price(value: string, locale: string): string {
  const decimals = value.split('.')[1]?.length ?? 0;
  return numberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value as unknown as number);
}
