/**
 * The market feed websocket, opened at start (spec §4). Each array message replaces the live quote
 * list; errors and closes are only logged, then the socket reconnects with a growing delay.
 */
export type LiveQuote = { code: string; price: string; zdf: string };

type Listener = (quotes: readonly LiveQuote[]) => void;

const listeners = new Set<Listener>();
let latest: readonly LiveQuote[] = [];
let socket: WebSocket | null = null;
let retryMs = 1000;

export function connectQuotes(): void {
  if (socket || typeof WebSocket === 'undefined') return;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/message`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    retryMs = 1000;
  };
  ws.onmessage = (event) => {
    try {
      const value: unknown = JSON.parse(String(event.data));
      if (!Array.isArray(value)) return;
      latest = value as LiveQuote[];
      for (const listener of listeners) listener(latest);
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

export function onQuotes(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The latest pushed quote per code; a new map per message, so React sees each change. */
let byCode = new Map<string, LiveQuote>();
onQuotes((quotes) => {
  const next = new Map(byCode);
  for (const q of quotes) next.set(q.code, q);
  byCode = next;
});

export function subscribeQuotes(listener: () => void): () => void {
  return onQuotes(() => listener());
}

export function quoteMap(): ReadonlyMap<string, LiveQuote> {
  return byCode;
}
