import { Code, type Language, type LiveQuote, type MarketItem } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { CATALOGUE } from './catalogue.data.ts';
import {
  type Candle,
  candles,
  change24h,
  formatPrice,
  hundred,
  type Instrument,
  isOpen,
  type MarketClass,
  type Period,
  quoteAt,
} from './feed.ts';
import {
  addToWatchlist,
  insertMissingInstruments,
  listedInstruments,
  removeFromWatchlist,
  watchlistOf,
} from './market.repository.ts';

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

  constructor(db: Database, now: () => number = () => Date.now()) {
    this.db = db;
    this.now = now;
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

  instrumentById(id: number): Listed | undefined {
    return this.byId.get(id);
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private item(instrument: Listed, language: Language, t: number): MarketItem {
    const quote = quoteAt(instrument, t);
    const nowMs = this.now();
    let cached = this.hundredCache.get(instrument.id);
    if (!cached || nowMs - cached.at > HUNDRED_TTL_MS) {
      cached = { at: nowMs, points: hundred(instrument, t) };
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
      zdf: change24h(instrument, t).toFixed(6),
      hundred: cached.points,
      open: isOpen(instrument.class, t),
    };
  }

  listByType(type: number, language: Language): MarketItem[] {
    const cls = CLASS_OF_TYPE[type];
    const t = this.seconds();
    return this.instruments.filter((i) => i.class === cls).map((i) => this.item(i, language, t));
  }

  info(id: number, language: Language): MarketItem {
    const instrument = this.byId.get(id);
    if (!instrument) throw new ApiError(Code.NOT_FOUND);
    return this.item(instrument, language, this.seconds());
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
    return candles(instrument, period, end, limit);
  }

  /** The quote batch for one tick: every instrument whose market is open. */
  quotes(t = this.seconds()): LiveQuote[] {
    const out: LiveQuote[] = [];
    for (const instrument of this.instruments) {
      if (!isOpen(instrument.class, t)) continue;
      out.push({
        code: instrument.code,
        price: formatPrice(instrument, quoteAt(instrument, t).mid),
        zdf: change24h(instrument, t).toFixed(6),
      });
    }
    return out;
  }

  /** The current mid price of an instrument as a decimal string, or null if it is not listed. */
  midPrice(code: string): string | null {
    const instrument = this.byCode.get(code);
    return instrument ? formatPrice(instrument, quoteAt(instrument, this.seconds()).mid) : null;
  }

  async watchlist(userId: number, language: Language): Promise<MarketItem[]> {
    const t = this.seconds();
    return (await watchlistOf(this.db, userId)).flatMap((id) => {
      const instrument = this.byId.get(id);
      return instrument ? [this.item(instrument, language, t)] : [];
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
