import type { Logger } from '../../platform/logger.ts';
import {
  type Candle,
  formatPrice,
  type Instrument,
  PERIOD_SECONDS,
  type Period,
  type Quote,
} from './feed.ts';
import type { PriceSource } from './source.ts';

/**
 * Prices from Binance's public market data streams (spot), over one websocket to the combined
 * stream endpoint `<url>` (…/stream), subscribing with `{"method": "SUBSCRIBE", "params":
 * ["<symbol>@bookTicker", "<symbol>@miniTicker", …], "id": n}` messages (at most 200 streams each,
 * one every 250 ms: the exchange takes 5 messages a second and 1024 streams a connection; the
 * catalogue's crypto pairs are far too many for a URL). Each data frame is
 * `{"stream": "<symbol>@<kind>", "data": {…}}`:
 * - bookTicker `{u, s, b, B, a, A}`: the best bid and ask (prices and quantities as decimal
 *   strings), pushed on every change of the top of the book;
 * - miniTicker `{e: "24hrMiniTicker", E, s, c, o, h, l, v, q}`: the rolling 24-hour statistics,
 *   of which the open `o` gives the 24-hour change.
 *
 * A catalogue instrument maps to the exchange symbol of the same code (BTCUSDT → btcusdt) when it
 * is a crypto pair quoted in USDT; other instruments are not priced by this source (not tradable).
 *
 * Per second: the quote of second t is the last top of book received before second t began, so
 * it never changes once asked (a preview and the order that confirms it see the same figures)
 * and a delay of at most a second. A quote whose last update is more than `staleSeconds` before t
 * is stale: the instrument is not tradable and is not published, rather than priced from an old
 * price. The connection is reopened with exponential backoff (with jitter) when it closes, fails,
 * or goes silent for `staleSeconds`; Binance also closes every connection after 24 hours.
 */
export type BinanceSourceOptions = {
  /** The combined-stream endpoint, e.g. wss://data-stream.binance.vision/stream. */
  url: string;
  staleSeconds: number;
  logger?: Logger;
  /** Wall clock in ms (tests give their own). */
  now?: () => number;
  /** First and longest wait before reconnecting, in ms. */
  backoff?: { initialMs: number; maxMs: number };
};

/** The exchange symbol of a catalogue instrument, or null when this source does not price it. */
export function binanceSymbol(instrument: Pick<Instrument, 'code' | 'class'>): string | null {
  return instrument.class === 'crypto' && /^[A-Z0-9]{2,16}USDT$/.test(instrument.code)
    ? instrument.code
    : null;
}

/** Streams per SUBSCRIBE message, and per connection (the exchange's limit). */
const SUBSCRIBE_CHUNK = 200;
const MAX_STREAMS = 1024;
/** Seconds of per-second quotes kept (trigger replay and quote confirmation look back a little). */
const HISTORY_SECONDS = 3600;
/** Minutes of one-minute bars kept, for candles, the mini chart and the 24-hour change. */
const BAR_MINUTES = 1500;

type Bar = { minute: number; open: number; high: number; low: number; close: number };

class Track {
  readonly instrument: Instrument;
  /** Per second with an update: the second, and the last bid and ask received in it. */
  readonly seconds: number[] = [];
  readonly bids: number[] = [];
  readonly asks: number[] = [];
  readonly bars: Bar[] = [];
  /** The exchange's rolling 24-hour open (miniTicker `o`). */
  open24h: number | null = null;
  constructor(instrument: Instrument) {
    this.instrument = instrument;
  }

  record(second: number, bid: number, ask: number): void {
    const last = this.seconds.length - 1;
    if (last >= 0 && (this.seconds[last] as number) >= second) {
      this.bids[last] = bid;
      this.asks[last] = ask;
    } else {
      this.seconds.push(second);
      this.bids.push(bid);
      this.asks.push(ask);
      if (this.seconds.length > HISTORY_SECONDS + 512) {
        const keepFrom = this.seconds.findIndex((s) => s > second - HISTORY_SECONDS);
        this.seconds.splice(0, keepFrom);
        this.bids.splice(0, keepFrom);
        this.asks.splice(0, keepFrom);
      }
    }
    const mid = (bid + ask) / 2;
    const minute = Math.floor(second / 60);
    const bar = this.bars[this.bars.length - 1];
    if (bar && bar.minute >= minute) {
      bar.high = Math.max(bar.high, mid);
      bar.low = Math.min(bar.low, mid);
      bar.close = mid;
    } else {
      this.bars.push({ minute, open: mid, high: mid, low: mid, close: mid });
      if (this.bars.length > BAR_MINUTES + 60) this.bars.splice(0, this.bars.length - BAR_MINUTES);
    }
  }

  /** The index of the last second before `t` (strictly), or -1. */
  before(t: number): number {
    let lo = 0;
    let hi = this.seconds.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.seconds[mid] as number) < t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  quoteAt(index: number): Quote {
    const bid = this.bids[index] as number;
    const ask = this.asks[index] as number;
    return { bid, ask, mid: (bid + ask) / 2 };
  }
}

/** A positive finite decimal string, as the exchange sends prices; else null. */
function price(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,20}(\.\d{1,20})?$/.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
}

export class BinanceSource implements PriceSource {
  readonly name = 'binance' as const;
  private readonly url: string;
  private readonly staleSeconds: number;
  private readonly logger: Logger | undefined;
  private readonly now: () => number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly bySymbol = new Map<string, Track>();
  private readonly byId = new Map<number, Track>();
  private socket: WebSocket | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private failures = 0;
  private lastFrameAt = 0;
  private running = false;
  /** Counters for operators and tests: frames applied, frames ignored, connections opened. */
  readonly stats = { applied: 0, ignored: 0, connections: 0 };

  constructor(options: BinanceSourceOptions) {
    this.url = options.url;
    this.staleSeconds = options.staleSeconds;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  }

  prices(instrument: Instrument): boolean {
    return this.byId.has(instrument.id);
  }

  quote(instrument: Instrument, t: number): Quote | null {
    const track = this.byId.get(instrument.id);
    if (!track) return null;
    const at = track.before(t);
    if (at < 0 || t - (track.seconds[at] as number) > this.staleSeconds) return null;
    return track.quoteAt(at);
  }

  isOpen(instrument: Instrument, t: number): boolean {
    return this.quote(instrument, t) !== null;
  }

  lastQuote(instrument: Instrument, t: number): Quote | null {
    const track = this.byId.get(instrument.id);
    if (!track) return null;
    const at = track.before(t + 1);
    return at < 0 ? null : track.quoteAt(at);
  }

  change24h(instrument: Instrument, t: number): number {
    const track = this.byId.get(instrument.id);
    const last = this.lastQuote(instrument, t);
    if (!track || !last) return 0;
    const open = track.open24h ?? track.bars.find((bar) => bar.minute * 60 >= t - 86_400)?.open ?? null;
    return open ? (last.mid - open) / open : 0;
  }

  hundred(instrument: Instrument, t: number): string[] {
    const track = this.byId.get(instrument.id);
    if (!track) return [];
    const bars = track.bars.filter((bar) => bar.minute * 60 > t - 86_400 && bar.minute * 60 <= t);
    const step = Math.max(1, bars.length / 100);
    const points: string[] = [];
    for (let i = 0; i < bars.length && points.length < 100; i += step)
      points.push(formatPrice(instrument, (bars[Math.floor(i)] as Bar).close));
    return points;
  }

  /** Candles from the one-minute bars received (the last day or so; nothing before the source started). */
  candles(instrument: Instrument, period: Period, end: number, limit: number): Candle[] {
    const track = this.byId.get(instrument.id);
    if (!track) return [];
    const length = PERIOD_SECONDS[period];
    const anchor = period === '1w' ? 4 * 86_400 : 0;
    const out: Candle[] = [];
    let current: (Bar & { start: number }) | null = null;
    const flush = () => {
      if (!current) return;
      out.push({
        time: current.start,
        open: formatPrice(instrument, current.open),
        high: formatPrice(instrument, current.high),
        low: formatPrice(instrument, current.low),
        close: formatPrice(instrument, current.close),
      });
    };
    for (const bar of track.bars) {
      if (bar.minute * 60 > end) break;
      const start = Math.floor((bar.minute * 60 - anchor) / length) * length + anchor;
      if (current && current.start === start) {
        current.high = Math.max(current.high, bar.high);
        current.low = Math.min(current.low, bar.low);
        current.close = bar.close;
      } else {
        flush();
        current = { ...bar, start };
      }
    }
    flush();
    return out.slice(-limit);
  }

  start(instruments: readonly Instrument[]): void {
    for (const instrument of instruments) {
      const symbol = binanceSymbol(instrument);
      if (!symbol || this.bySymbol.has(symbol)) continue;
      const track = new Track(instrument);
      this.bySymbol.set(symbol, track);
      this.byId.set(instrument.id, track);
    }
    if (this.running || this.bySymbol.size === 0) return;
    this.running = true;
    this.connect();
    this.watchdog = setInterval(() => {
      // Silent (or still connecting) for longer than a price may be old: the connection is dead
      // in all but name; closing it reconnects.
      const state = this.socket?.readyState;
      if (
        this.socket &&
        (state === WebSocket.OPEN || state === WebSocket.CONNECTING) &&
        performance.now() - this.lastFrameAt > Math.max(this.staleSeconds, 5) * 1000
      ) {
        this.logger?.warn({ source: 'binance' }, 'market source silent: reconnecting');
        this.socket.close();
      }
    }, 1000);
    this.watchdog.unref();
  }

  stop(): void {
    this.running = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.watchdog) clearInterval(this.watchdog);
    this.reconnectTimer = null;
    this.watchdog = null;
    this.socket?.close();
    this.socket = null;
  }

  /** Applies one frame of the combined stream; returns whether it carried a price. */
  apply(text: string): boolean {
    let frame: { stream?: unknown; data?: Record<string, unknown> };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      this.stats.ignored += 1;
      return false;
    }
    const data = frame.data;
    const stream = typeof frame.stream === 'string' ? frame.stream : '';
    // The answer to a SUBSCRIBE: {"result": null, "id": n}; an error names its code and message.
    if (!data && 'id' in frame) {
      const answer = frame as { result?: unknown; error?: unknown };
      if (answer.error)
        this.logger?.warn({ source: 'binance', error: answer.error }, 'market source refused a subscription');
      return false;
    }
    const track = data && typeof data.s === 'string' ? this.bySymbol.get(data.s) : undefined;
    if (!data || !track || !stream.startsWith(`${(data.s as string).toLowerCase()}@`)) {
      this.stats.ignored += 1;
      return false;
    }
    if (stream.endsWith('@bookTicker')) {
      const bid = price(data.b);
      const ask = price(data.a);
      if (bid === null || ask === null || bid > ask) {
        this.stats.ignored += 1;
        return false;
      }
      const second = Math.floor(this.now() / 1000);
      track.record(second, bid, ask);
      this.stats.applied += 1;
      return true;
    }
    if (stream.endsWith('@miniTicker')) {
      const open = price(data.o);
      if (open === null) {
        this.stats.ignored += 1;
        return false;
      }
      track.open24h = open;
      this.stats.applied += 1;
      return true;
    }
    this.stats.ignored += 1;
    return false;
  }

  private connect(): void {
    const streams = [...this.bySymbol.keys()].flatMap((symbol) => [
      `${symbol.toLowerCase()}@bookTicker`,
      `${symbol.toLowerCase()}@miniTicker`,
    ]);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.lastFrameAt = performance.now();
    let received = false;
    socket.addEventListener('open', () => {
      this.stats.connections += 1;
      this.lastFrameAt = performance.now();
      this.logger?.info({ source: 'binance', symbols: this.bySymbol.size }, 'market source connected');
      const chunks: string[][] = [];
      for (let i = 0; i < Math.min(streams.length, MAX_STREAMS); i += SUBSCRIBE_CHUNK)
        chunks.push(streams.slice(i, Math.min(i + SUBSCRIBE_CHUNK, MAX_STREAMS)));
      const next = (id: number) => {
        const params = chunks[id - 1];
        if (!params || this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
        socket.send(JSON.stringify({ method: 'SUBSCRIBE', params, id }));
        setTimeout(() => next(id + 1), 250).unref();
      };
      next(1);
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      this.lastFrameAt = performance.now();
      if (typeof event.data !== 'string') return;
      if (this.apply(event.data) && !received) {
        received = true;
        this.failures = 0;
      }
    });
    socket.addEventListener('error', () => {
      // 'close' follows and reconnects.
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!this.running) return;
      const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.failures);
      this.failures = Math.min(this.failures + 1, 16);
      const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
      this.logger?.warn(
        { source: 'binance', code: event.code, retryInMs: wait },
        'market source disconnected',
      );
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        if (this.running) this.connect();
      }, wait);
      this.reconnectTimer.unref();
    });
  }
}
