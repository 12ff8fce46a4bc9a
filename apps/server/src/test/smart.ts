import type { SmartProductBody } from '@swx/contract';
import type { AuditService } from '../modules/audit/audit.service.ts';
import type { LedgerService } from '../modules/ledger/ledger.service.ts';
import { type Instrument, quoteAt } from '../modules/market/feed.ts';
import { MarketService } from '../modules/market/market.service.ts';
import { type PriceSource, simulatedSource } from '../modules/market/source.ts';
import type { NoticesService } from '../modules/notices/notices.service.ts';
import { PositionsService } from '../modules/positions/positions.service.ts';
import { SmartService } from '../modules/smart/smart.service.ts';
import { createMemoryBus } from '../platform/bus.ts';
import type { Database } from '../platform/db.ts';
import { KeyRing } from '../platform/keys.ts';

/**
 * Smart plans on real services, as app.ts builds them, with an injected clock and price source
 * (the simulator by default: the platform's own prices at any moment of the clock).
 */
export async function testSmart(
  deps: { db: Database; ledger: LedgerService; audit: AuditService; notices: NoticesService },
  options: { now: () => number; source?: PriceSource },
) {
  const market = new MarketService(deps.db, options.now, options.source ?? simulatedSource);
  await market.load();
  const trading = new PositionsService({
    db: deps.db,
    ledger: deps.ledger,
    market,
    bus: createMemoryBus(),
    notices: deps.notices,
    now: options.now,
  });
  const smart = new SmartService({
    ...deps,
    trading,
    now: options.now,
    quoteKeys: new KeyRing(Buffer.alloc(32, 7)).purpose('quotes'),
  });
  return { market, trading, smart };
}

/** A product body with the tests' defaults: the moving-average rule on BTCUSDT, 1 to 30 days, no fee. */
export function smartProductBody(overrides: Partial<SmartProductBody> = {}): SmartProductBody {
  return {
    name: 'BTC trend',
    strategy: 'ma_trend',
    instruments: ['BTCUSDT'],
    timeframes: [1, 3, 30],
    minAmount: '1000',
    maxAmount: '100000',
    capacity: '1000000',
    feeShare: '0',
    enabled: true,
    ...overrides,
  };
}

/**
 * The simulator's prices, except one instrument whose mid follows the path `path()` answers (in
 * price units; null: the simulator's) with the simulator's spread: a path a test draws (a crash, a
 * trend) on the real pricing path.
 */
export function scriptedSource(code: string, path: () => ((t: number) => number) | null): PriceSource {
  const quote = (instrument: Instrument, t: number) => {
    const mid = path();
    if (instrument.code !== code || mid === null) return simulatedSource.quote(instrument, t);
    const q = quoteAt(instrument, t);
    const half = (q.ask - q.bid) / 2;
    const m = mid(t);
    return { mid: m, bid: m - half, ask: m + half };
  };
  return { ...simulatedSource, quote, lastQuote: quote };
}
