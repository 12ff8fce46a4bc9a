import {
  Code,
  type Direction,
  parseMinor,
  SETTLEMENT_SCALE,
  type TicketFigures,
  type TradingTerms,
} from '@swx/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { type Quote, quoteOf } from '../market/live.ts';
import { useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { stopIssues, stopMessage, stopsOfFigures, type TicketCheck, trailingIssue } from './ticket.ts';

/** The preview follows the market once a second while the ticket is valid. */
const PREVIEW_EVERY_MS = 1_000;
/** Typing settles for this long before the ticket is priced. */
const DEBOUNCE_MS = 300;
/** Screen readers hear the figures when the ticket changes, and otherwise at most this often. */
const ANNOUNCE_EVERY_MS = 20_000;

/** The USDT the customer has available in the book in use; null when logged out or not yet known. */
export function useAvailableUsdt(): string | null {
  const user = useClientState((s) => s.userInfo);
  const isLogin = useClientState((s) => s.isLogin);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const balances = useQuery({
    ...ledgerQueries.balances(user?.id ?? 0, book),
    enabled: isLogin && user !== null,
  });
  if (!isLogin) return null;
  return balances.data?.balances.find((row) => row.asset === 'USDT')?.available ?? null;
}

/** The body of a ticket once its typing has settled ('' while it has none, or has not settled). */
function useSettledKey(bodyKey: string): string {
  const [debouncedKey, setDebouncedKey] = useState(bodyKey);
  useEffect(() => {
    const timer = setTimeout(() => setDebouncedKey(bodyKey), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bodyKey]);
  return debouncedKey;
}

/**
 * The ticket priced by the server, following the market: the figures of the ticket as it is now
 * (`fresh`, null while typing settles or the market is closed), the figures to show (the last ones
 * meanwhile), the failure, whether the market is closed, which stops are refused, whether the
 * balance is short, and whether the customer can go on to the confirm step.
 */
export function useTicketPreview(check: TicketCheck, terms: TradingTerms, available: string | null) {
  const isLogin = useClientState((s) => s.isLogin);
  const bodyKey = check.body ? JSON.stringify(check.body) : '';
  const debouncedKey = useSettledKey(bodyKey);
  const settled = bodyKey !== '' && debouncedKey === bodyKey;
  const marketOpen = terms.open;

  const language = useClientState((s) => s.language);
  // The quote is signed for the customer and the book that asked: both are in the key.
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const query = useQuery({
    ...tradeQueries.preview(userId, book, language, debouncedKey),
    enabled: debouncedKey !== '' && marketOpen,
    refetchInterval: (q) => (q.state.status === 'error' ? false : PREVIEW_EVERY_MS),
    placeholderData: keepPreviousData,
    gcTime: 5_000,
  });
  const fresh: TicketFigures | null =
    settled && marketOpen && query.data && !query.isPlaceholderData ? query.data : null;
  const shown = marketOpen && bodyKey !== '' ? (query.data ?? null) : null;
  const failure = settled && query.isError ? query.error : null;
  const closedNow =
    !marketOpen || (failure instanceof ApiFailure && failure.code === Code.NOT_AVAILABLE_FOR_TRADING);
  const serverStops =
    failure instanceof ApiFailure && failure.code === Code.INVALID_INPUT ? stopIssues(failure.data) : null;
  const stopKey = stopMessage(serverStops ?? (fresh ? stopsOfFigures(fresh.unreasonable) : null));
  /** The server refused the trailing distance (said under its field, not as a failure). */
  const serverTrailing =
    failure instanceof ApiFailure && failure.code === Code.INVALID_INPUT && trailingIssue(failure.data);
  const insufficient =
    fresh !== null && available !== null
      ? parseMinor(fresh.cost, SETTLEMENT_SCALE) > parseMinor(available, SETTLEMENT_SCALE)
      : false;
  const canReview = isLogin && !closedNow && fresh !== null && stopKey === null && !insufficient;
  return {
    query,
    bodyKey,
    debouncedKey,
    fresh,
    shown,
    failure,
    closedNow,
    serverStops,
    serverTrailing,
    stopKey,
    insufficient,
    canReview,
  };
}

export type TicketPreview = ReturnType<typeof useTicketPreview>;

/** The page hears the quote the figures are priced at (null while there is none), from the same tick. */
export function useQuoteReport(
  onQuote: ((quote: Quote | null) => void) | undefined,
  { closedNow, shown }: Pick<TicketPreview, 'closedNow' | 'shown'>,
) {
  const quotedBid = !closedNow && shown ? shown.bid : null;
  const quotedAsk = !closedNow && shown ? shown.ask : null;
  // A layout effect: the page re-renders before the browser paints, so no frame shows two quotes.
  useLayoutEffect(() => {
    onQuote?.(quotedBid !== null && quotedAsk !== null ? quoteOf(quotedBid, quotedAsk) : null);
  }, [onQuote, quotedBid, quotedAsk]);
  useLayoutEffect(() => () => onQuote?.(null), [onQuote]);
}

/** A polite, throttled summary of the figures for screen readers: on each change of the ticket, else rarely. */
export function useTicketAnnouncement(
  { fresh, debouncedKey }: Pick<TicketPreview, 'fresh' | 'debouncedKey'>,
  direction: Direction,
): string {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const [announcement, setAnnouncement] = useState('');
  const lastAnnounced = useRef({ at: 0, key: '' });
  useEffect(() => {
    if (!fresh) return;
    const now = Date.now();
    if (lastAnnounced.current.key === debouncedKey && now - lastAnnounced.current.at < ANNOUNCE_EVERY_MS)
      return;
    lastAnnounced.current = { at: now, key: debouncedKey };
    setAnnouncement(
      t('trade.announce', {
        direction: direction === 'long' ? t('trade.long') : t('trade.short'),
        price: f.price(fresh.price),
        margin: f.usdt(fresh.margin),
        fee: f.usdt(fresh.fee),
        cost: f.usdt(fresh.cost),
      }),
    );
  }, [fresh, debouncedKey, direction, t, f]);
  return announcement;
}
