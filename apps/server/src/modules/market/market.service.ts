import { Code, type Language, type LiveQuote, type MarketItem } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { CATALOGUE } from './catalogue.data.ts';
import { type Candle, formatPrice, type Instrument, type MarketClass, type Period } from './feed.ts';
import {
  addToWatchlist,
  insertMissingInstruments,
  listedInstruments,
  removeFromWatchlist,
  watchlistOf,
} from './market.repository.ts';
import { type PriceSource, simulatedSource } from './source.ts';

export const TYPE_OF_CLASS: Record<MarketClass, number> = {
  forex: 1,
  crypto: 2,
  stocks: 3,
  etf: 5,
  metals: 6,
  futures: 7,
};
const CLASS_OF_TYPE = Object.fromEntries(Object.entries(TYPE_OF_CLASS).map(([c, t]) => [t, c])) as Record<
  number,
  MarketClass
>;

type Listed = Instrument & { name: string; names: Record<string, string> };

/** The mini chart changes slowly: recompute an instrument's 100 points at most once a minute. */
const HUNDRED_TTL_MS = 60_000;

/**
 * The instrument catalogue and everything priced from the feed: market items, candles, the
 * quote batches pushed on /message, and each customer's watchlist.
 */
export class MarketService {
  private readonly db: Database;
  private instruments: Listed[] = [];
  private byId = new Map<number, Listed>();
  private byCode = new Map<string, Listed>();
  private readonly hundredCache = new Map<number, { at: number; points: string[] }>();
  private readonly now: () => number;
  /** Where prices come from: the simulator (sandbox) or a real exchange (source.ts). */
  readonly source: PriceSource;

  constructor(db: Database, now: () => number = () => Date.now(), source: PriceSource = simulatedSource) {
    this.db = db;
    this.now = now;
    this.source = source;
  }

  /** Starts the price source on the listed instruments (after load; a real source connects). */
  startSource(): void {
    this.source.start(this.instruments);
  }

  /** Whether an instrument is tradable at second t: its market open and a fresh price. */
  isOpen(instrument: Instrument, t: number): boolean {
    return this.source.isOpen(instrument, t);
  }

  /** Seeds missing catalogue entries, then loads the listed instruments into memory. */
  async load(): Promise<void> {
    await insertMissingInstruments(
      this.db,
      CATALOGUE.map((entry) => ({
        code: entry.code,
        class: entry.class,
        name: entry.name,
        names: JSON.stringify(entry.names ?? {}),
        refPrice: entry.ref,
        decimals: decimalsFor(entry.class, entry.ref),
      })),
    );
    this.instruments = (await listedInstruments(this.db)).map((row) => ({
      id: row.id,
      code: row.code,
      class: row.class,
      ref: Number(row.refPrice),
      decimals: row.decimals,
      name: row.name,
      names: row.names,
    }));
    this.byId = new Map(this.instruments.map((i) => [i.id, i]));
    this.byCode = new Map(this.instruments.map((i) => [i.code, i]));
  }

  get count(): number {
    return this.instruments.length;
  }

  countByType(): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const i of this.instruments)
      counts[TYPE_OF_CLASS[i.class]] = (counts[TYPE_OF_CLASS[i.class]] ?? 0) + 1;
    return counts;
  }

  instrument(code: string): Listed | undefined {
    return this.byCode.get(code);
  }

  /** An instrument's market type (spec §3: 1 forex, 2 crypto, …). */
  typeOf(code: string): number | undefined {
    const instrument = this.byCode.get(code);
    return instrument ? TYPE_OF_CLASS[instrument.class] : undefined;
  }

  instrumentById(id: number): Listed | undefined {
    return this.byId.get(id);
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** The item as customers see it; null while its source has never priced it. */
  private item(instrument: Listed, language: Language, t: number): MarketItem | null {
    // A stale price is shown marked closed (open: false) and is never traded or published.
    const quote = this.source.lastQuote(instrument, t);
    if (!quote) return null;
    const nowMs = this.now();
    let cached = this.hundredCache.get(instrument.id);
    if (!cached || nowMs - cached.at > HUNDRED_TTL_MS) {
      cached = { at: nowMs, points: this.source.hundred(instrument, t) };
      this.hundredCache.set(instrument.id, cached);
    }
    return {
      id: instrument.id,
      code: instrument.code,
      type: TYPE_OF_CLASS[instrument.class],
      appName: instrument.names[language] ?? instrument.name,
      logo: `/logos/${instrument.code}.svg`,
      price: formatPrice(instrument, quote.mid),
      bid: formatPrice(instrument, quote.bid),
      ask: formatPrice(instrument, quote.ask),
      change: this.source.change24h(instrument, t).toFixed(6),
      hundred: cached.points,
      open: this.source.isOpen(instrument, t),
    };
  }

  listByType(type: number, language: Language): MarketItem[] {
    const cls = CLASS_OF_TYPE[type];
    const t = this.seconds();
    return this.instruments.flatMap((i) => {
      const item = i.class === cls ? this.item(i, language, t) : null;
      return item ? [item] : [];
    });
  }

  info(id: number, language: Language): MarketItem {
    const instrument = this.byId.get(id);
    if (!instrument) throw new ApiError(Code.NOT_FOUND);
    const item = this.item(instrument, language, this.seconds());
    if (!item) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
    return item;
  }

  /** Candles ending on a UTC date of the past year (its last second, or now for today). */
  candles(code: string, period: Period, date: string | undefined, limit: number): Candle[] {
    const instrument = this.byCode.get(code);
    if (!instrument) throw new ApiError(Code.NOT_FOUND);
    const now = this.seconds();
    let end = now;
    if (date) {
      const dayEnd = Date.parse(`${date}T23:59:59Z`) / 1000;
      if (!Number.isFinite(dayEnd) || dayEnd < now - 366 * 86_400)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'date', issue: 'out_of_range' }]);
      end = Math.min(dayEnd, now);
    }
    return this.source.candles(instrument, period, end, limit);
  }

  /** The quotes of one tick: every instrument whose market is open. */
  quotes(t = this.seconds()): LiveQuote[] {
    const out: LiveQuote[] = [];
    for (const instrument of this.instruments) {
      const quote = this.source.quote(instrument, t);
      if (!quote || !this.source.isOpen(instrument, t)) continue;
      out.push({
        code: instrument.code,
        price: formatPrice(instrument, quote.mid),
        change: this.source.change24h(instrument, t).toFixed(6),
      });
    }
    return out;
  }

  /** The current mid price of an instrument as a decimal string, or null if it is not listed. */
  midPrice(code: string): string | null {
    const instrument = this.byCode.get(code);
    const quote = instrument ? this.source.lastQuote(instrument, this.seconds()) : null;
    return instrument && quote ? formatPrice(instrument, quote.mid) : null;
  }

  async watchlist(userId: number, language: Language): Promise<MarketItem[]> {
    const t = this.seconds();
    return (await watchlistOf(this.db, userId)).flatMap((id) => {
      const instrument = this.byId.get(id);
      const item = instrument ? this.item(instrument, language, t) : null;
      return item ? [item] : [];
    });
  }

  async watch(userId: number, instrumentId: number): Promise<void> {
    if (!this.byId.has(instrumentId)) throw new ApiError(Code.NOT_FOUND);
    await addToWatchlist(this.db, userId, instrumentId);
  }

  async unwatch(userId: number, instrumentId: number): Promise<void> {
    await removeFromWatchlist(this.db, userId, instrumentId);
  }
}

/** Price decimals: the reference's own, at least 2, at least 5 for forex quoted below 20. */
export function decimalsFor(cls: MarketClass, ref: string): number {
  const given = ref.split('.')[1]?.length ?? 0;
  const floor = cls === 'forex' ? (Number(ref) < 20 ? 5 : 3) : 2;
  return Math.min(10, Math.max(given, floor));
}
