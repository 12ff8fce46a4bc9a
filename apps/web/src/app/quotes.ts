/**
 * The market feed websocket, opened at start (spec §4: by App once its first screen is committed). The app subscribes to the instruments on
 * screen (each live figure asks for its code while mounted), so a phone receives what it shows, not
 * the whole list. Errors and closes are only logged, then the socket reconnects with a growing delay.
 */
import type { LiveQuote, WireLiveQuote } from '@swx/contract';
import { quoteFromWire } from '../features/market/wire.ts';

const listeners = new Set<() => void>();
/** The latest pushed quote per code; an unchanged quote keeps its object, so its cells stay put. */
const byCode = new Map<string, LiveQuote>();
/** How many mounted figures ask for each code. */
const wanted = new Map<string, number>();
let socket: WebSocket | null = null;
let retryMs = 1000;
let pending = 0;

/** Tells the server what is on screen now (after a short rest, so a scroll sends one message). */
function sendWanted(delay = 100): void {
  clearTimeout(pending);
  pending = window.setTimeout(() => {
    const codes = [...wanted.keys()];
    // Past the server's limit of one subscription (200 codes), the whole list: `{}`.
    if (socket?.readyState === WebSocket.OPEN)
      socket.send(JSON.stringify(codes.length > 200 ? {} : { codes }));
  }, delay);
}

export function connectQuotes(): void {
  if (socket || typeof WebSocket === 'undefined') return;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/message`);
  socket = ws;
  ws.onopen = () => {
    retryMs = 1000;
    sendWanted(0);
  };
  ws.onmessage = (event) => {
    try {
      const value: unknown = JSON.parse(String(event.data));
      if (!Array.isArray(value)) return;
      for (const pushed of value as WireLiveQuote[]) {
        const q = quoteFromWire(pushed);
        const old = byCode.get(q.code);
        if (old?.price !== q.price || old.change !== q.change) byCode.set(q.code, q);
      }
      for (const listener of listeners) listener();
    } catch (error) {
      console.warn('quote feed: unreadable message', error);
    }
  };
  ws.onerror = () => console.warn('quote feed: connection error');
  ws.onclose = () => {
    console.info('quote feed: closed; reconnecting');
    socket = null;
    setTimeout(connectQuotes, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
}

/** Asks for one instrument's quotes until the returned function is called. */
export function watchQuote(code: string): () => void {
  wanted.set(code, (wanted.get(code) ?? 0) + 1);
  sendWanted();
  return () => {
    const count = (wanted.get(code) ?? 1) - 1;
    if (count > 0) wanted.set(code, count);
    else wanted.delete(code);
    sendWanted();
  };
}

export function subscribeQuotes(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function latestQuote(code: string): LiveQuote | undefined {
  return byCode.get(code);
}
