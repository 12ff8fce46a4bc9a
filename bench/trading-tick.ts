// The trigger engine's part of bench/trading.ts (`npm run bench:triggers`): its time to process one
// tick that crosses 100,000 of 1,000,000 open stop levels (PGlite in memory; only the engine's index
// is measured), first with stop losses alone, then in the same run with a fifth of the positions on
// trailing stops (which follow the price, so each tick scans them: a quiet tick costs what they are,
// not what fires), then with every kind of trigger the engine evaluates: positions' stops and
// trailing stops, pending entry orders and the price alerts it tells each tick.
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import type { Instrument } from '../apps/server/src/modules/market/feed.ts';
import { MarketService } from '../apps/server/src/modules/market/market.service.ts';
import type { PendingRow } from '../apps/server/src/modules/positions/pending.repository.ts';
import { TriggerEngine } from '../apps/server/src/modules/positions/positions.engine.ts';
import type { PositionRow } from '../apps/server/src/modules/positions/positions.repository.ts';
import { PositionsService } from '../apps/server/src/modules/positions/positions.service.ts';
import { PriceAlertIndex } from '../apps/server/src/modules/pricealerts/pricealerts.index.ts';
import { createMemoryBus } from '../apps/server/src/platform/bus.ts';
import { type Database, openPglite } from '../apps/server/src/platform/db.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';

// 1,000,000 stay open for the measured tick after warm-up ticks close the first 2,000.
const WARM_TICKS = 400;
const WARM_EACH = 5;
const N = 1_000_000 + WARM_TICKS * WARM_EACH;

/** The price the engine's positions see; the ticks move it. */
type Price = { bid: bigint };

/** Rising ticks before the measured one (each moves every open trailing level). */
const RISES = 20;
/** Every this many positions has a trailing stop in the mixed run (a fifth of them). */
const TRAILING_EVERY = 5;

/**
 * 1,000,000 open longs on one instrument with stops spread below the price; a tick crosses 100,000.
 * Twice in one run: stop losses alone (today's figure), then the mix with trailing stops.
 */
export async function tick(): Promise<void> {
  const db = await openPglite(undefined);
  await migrate(db);
  const stopsOnly = await measure(db, false);
  const mixed = await measure(db, true);
  const all = await measureAll(db);
  console.log(
    `\nTrigger engine, ${N.toLocaleString('en')} open positions (${(N * 3).toLocaleString('en')} levels: stop loss, take profit, stop-out):`,
  );
  report('stops only', stopsOnly);
  console.log(
    `\nThe same with every ${ordinal(TRAILING_EVERY)} position on a trailing stop (${(N / TRAILING_EVERY).toLocaleString('en')} trailing stops, tighter than their stop losses):`,
  );
  report('mixed', mixed);
  console.log(
    `  a rising tick (after ${RISES} others) that moves every open trailing level: ${mixed.risingMs.toFixed(3)} ms (${mixed.moved.toLocaleString('en')} levels marked to write; the stops-only engine: ${stopsOnly.risingMs.toFixed(3)} ms)`,
  );
  console.log(
    `\n  side by side: crossing tick ${stopsOnly.crossMs.toFixed(1)} ms stops only, ${mixed.crossMs.toFixed(1)} ms with trailing stops; quiet tick ${stopsOnly.quietMs.toFixed(3)} ms vs ${mixed.quietMs.toFixed(3)} ms`,
  );
  console.log(
    `\nEvery kind of trigger in one engine: ${all.positions.toLocaleString('en')} positions (a fifth on trailing stops), ${all.pendings.toLocaleString('en')} pending entry orders and ${all.alerts.toLocaleString('en')} price alerts, their levels interleaved:`,
  );
  console.log(
    `  [all kinds] index built in ${all.loadMs.toFixed(0)} ms (positions ${all.positionsMs.toFixed(0)}, pending ${all.pendingMs.toFixed(0)}, alerts ${all.alertsMs.toFixed(0)}); heap ${all.memory.toFixed(0)} MB`,
  );
  console.log(`  [all kinds] quiet tick (nothing crosses): ${all.quietMs.toFixed(3)} ms`);
  console.log(
    `  [all kinds] tick crossing ${all.crossed.toLocaleString('en')} of ${all.open.toLocaleString('en')} triggers (${all.closed.toLocaleString('en')} positions closed, ${all.filled.toLocaleString('en')} orders to fill, ${all.fired.toLocaleString('en')} alerts to tell): ${all.crossMs.toFixed(1)} ms (positions ${all.split.positions.toFixed(1)}, pending ${all.split.pending.toFixed(1)}, alerts ${all.split.alerts.toFixed(1)})`,
  );
  console.log(
    `\n  side by side: one tick crossing 100,000 stops of 1,000,000 positions ${stopsOnly.crossMs.toFixed(1)} ms; 100,000 of 1,000,000 mixed triggers ${all.crossMs.toFixed(1)} ms (the index only: the fills, closings and alerts' deliveries that follow are the ledger's and mail's work)`,
  );
  await db.close();
}

/** Of every 10 levels on the ladder: 6 positions' stops, 2 pending orders, 2 price alerts. */
const KIND_OF = [
  'position',
  'position',
  'pending',
  'position',
  'alert',
  'position',
  'pending',
  'position',
  'alert',
  'position',
] as const;

/**
 * One engine with every kind of trigger: N levels one cent apart below the price, each a position's
 * stop (a fifth of them trailing stops), a pending sell-stop order or a price alert below the
 * price, in a fixed interleaving; the alerts in the price-alert index the engine tells each tick.
 * The same warm-up ticks, then the tick that crosses the next 100,000 levels.
 */
async function measureAll(db: Database) {
  const price: Price = { bid: 10_000_000n };
  const { engine, btc } = await triggerEngine(db, price);
  const alerts = new PriceAlertIndex();
  const base = positionBase(btc);
  const levelOf = (i: number) => 9_999_999n - BigInt(i);
  const counts = { positions: 0, pendings: 0, alerts: 0 };
  let t0 = performance.now();
  engine.bulkLoad(
    (function* () {
      for (let i = 0; i < N; i++) {
        if (KIND_OF[i % 10] !== 'position') continue;
        counts.positions++;
        yield benchPosition(base, i, counts.positions % TRAILING_EVERY === 0);
      }
    })(),
  );
  const positionsMs = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < N; i++) {
    if (KIND_OF[i % 10] !== 'pending') continue;
    counts.pendings++;
    engine.pendings.track(pendingRow(btc, i + 1, levelOf(i)));
  }
  const pendingMs = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < N; i++) {
    if (KIND_OF[i % 10] !== 'alert') continue;
    counts.alerts++;
    // A below alert fires when the ask reaches its level: placed 400 ticks (the spread) above its rung.
    const level = Number(levelOf(i)) + 400;
    alerts.place({ id: i + 1, instrumentId: btc.id, kind: 'below', level, pctBp: null, armed: true });
  }
  const alertsMs = performance.now() - t0;
  const tickAll = (t: number) => {
    const quote = { bid: Number(price.bid), ask: Number(price.bid) + 400 };
    const a = performance.now();
    const closed = engine.detect(t).length;
    const b = performance.now();
    const filled = engine.pendings.detect(t).length;
    const c = performance.now();
    const fired = alerts.crossed(btc.id, quote.bid, quote.ask, null).length;
    const d = performance.now();
    return { closed, filled, fired, split: { positions: b - a, pending: c - b, alerts: d - c }, ms: d - a };
  };
  const quietMs = tickAll(1_000).ms;
  for (let i = 1; i <= WARM_TICKS; i++) {
    price.bid = 10_000_000n - BigInt(i * WARM_EACH);
    tickAll(1_000 + i);
  }
  const open = engine.openCount + engine.pendings.openCount + alerts.size;
  price.bid = 10_000_000n - BigInt(WARM_TICKS * WARM_EACH + 100_000);
  const crossing = tickAll(1_100);
  return {
    ...counts,
    loadMs: positionsMs + pendingMs + alertsMs,
    positionsMs,
    pendingMs,
    alertsMs,
    memory: process.memoryUsage().heapUsed / 1024 / 1024,
    quietMs,
    open,
    crossed: crossing.closed + crossing.filled + crossing.fired,
    closed: crossing.closed,
    filled: crossing.filled,
    fired: crossing.fired,
    split: crossing.split,
    crossMs: crossing.ms,
  };
}

/** An open pending sell-stop order at `level` (it fills when the bid falls to it). */
function pendingRow(btc: Instrument, id: number, level: bigint): PendingRow {
  return {
    id,
    userId: 1,
    book: 'demo',
    requestId: `bench-${id}`,
    instrumentId: btc.id,
    code: 'BTCUSDT',
    type: 'stop',
    direction: 'short',
    centilots: 1n,
    leverage: 2,
    priceDecimals: 2,
    levelTicks: level,
    stopLossTicks: 20_000_000n,
    takeProfitTicks: 1n,
    autoCloseAfter: null,
    language: 'en',
    heldMinor: 1n,
    holdId: id,
    expiresAt: null,
    placedTick: 0,
    state: 'open',
    reason: null,
    fillTick: null,
    fillTicks: null,
    positionId: null,
    released: false,
    createdAt: '',
    endedAt: null,
  };
}

function ordinal(n: number): string {
  return n === 5 ? 'fifth' : `1-in-${n}`;
}

type Measured = ReturnType<typeof crossTicks> & {
  loadMs: number;
  memory: number;
  trailing: number;
  risingMs: number;
  moved: number;
  fired: number;
  trailingFired: number;
};

function report(name: string, m: Measured): void {
  console.log(`  [${name}] index built in ${m.loadMs.toFixed(0)} ms; heap ${m.memory.toFixed(0)} MB`);
  console.log(`  [${name}] quiet tick (nothing crosses): ${m.quietMs.toFixed(3)} ms, ${m.none} closing`);
  console.log(
    `  [${name}] warm-up ticks (as a running server has had) closed ${m.warm.toLocaleString('en')} positions`,
  );
  console.log(
    `  [${name}] tick crossing ${m.fired.toLocaleString('en')} of ${m.open.toLocaleString('en')} open positions' stop levels${m.trailingFired ? ` (${m.trailingFired.toLocaleString('en')} of them trailing stops)` : ''}: ${m.crossMs.toFixed(1)} ms (target < 10 ms)`,
  );
  console.log(
    `  [${name}] next tick: ${m.nextMs.toFixed(3)} ms, ${m.after} closing; ${m.stillOpen.toLocaleString('en')} still open`,
  );
}

/** One engine over N positions (with or without trailing stops): load, ticks, and a rising tick. */
async function measure(db: Database, trailing: boolean): Promise<Measured> {
  const price: Price = { bid: 10_000_000n };
  const { engine, btc } = await triggerEngine(db, price);
  const loaded = loadPositions(engine, btc, trailing);
  const ticks = crossTicks(engine, price);
  // Back above the first tick's bid, a cent higher each tick (new highs): every open trailing level
  // follows each one. Warm-up rises first, as a running server has had; the last one is measured.
  for (let i = 1; i <= RISES; i++) {
    price.bid = 10_000_000n + BigInt(i);
    engine.detect(1_101 + i);
  }
  price.bid = 10_000_001n + BigInt(RISES);
  const t0 = performance.now();
  engine.detect(1_102 + RISES);
  const risingMs = performance.now() - t0;
  const moved = engine.trails.unsaved;
  return {
    ...loaded,
    ...ticks,
    fired: ticks.firedCount,
    trailing: trailing ? Math.floor(N / TRAILING_EVERY) : 0,
    risingMs,
    moved,
  };
}

/** The engine over a trading service whose quotes are `price`, and the instrument of the positions. */
async function triggerEngine(
  db: Database,
  price: Price,
): Promise<{ engine: TriggerEngine; btc: Instrument }> {
  const market = new MarketService(db);
  await market.load();
  const btc = market.instrument('BTCUSDT') as Instrument;
  const trading = new PositionsService({
    db,
    ledger: new LedgerService(db, new AuditService(db)),
    market,
    bus: createMemoryBus(),
    quote: () => ({ mid: price.bid, bid: price.bid, ask: price.bid + 400n }),
  });
  return { engine: new TriggerEngine({ trading, db, bus: createMemoryBus() }), btc };
}

/** An open long as the engine indexes it; each bench position adds its id and stop loss. */
function positionBase(btc: Instrument) {
  return {
    userId: 1,
    book: 'demo',
    instrumentId: btc.id,
    code: 'BTCUSDT',
    direction: 'long',
    centilots: 1n,
    lotSize: 1n,
    leverage: 2,
    priceDecimals: 2,
    openTicks: 10_000_400n,
    takeProfitTicks: 20_000_000n,
    liquidationTicks: 5_000_000n,
    conversionNum: 1n,
    conversionDen: 1n,
    notionalMinor: 1_000_000_000n,
    marginMinor: 500_000_000n,
    feeMinor: 1_000_000n,
    feePpm: 1000,
    openTick: 0,
    liveTick: 0,
    expiresTick: null,
    language: 'en',
    requestId: 'x',
    openEntryId: 1,
    openedAt: '',
    status: 'open',
    closeReason: null,
    closeTicks: null,
    closeTick: null,
    profitMinor: null,
    absorbedMinor: 0n,
    closeEntryId: null,
    closedAt: null,
    planId: null,
    trailingDistanceTicks: null,
    trailingLevelTicks: null,
  } satisfies Omit<PositionRow, 'id' | 'stopLossTicks'>;
}

/**
 * The i-th position of a bench: its stop loss on the i-th rung (99,999.99 down, a cent apart), or
 * with `trailing` its stop loss far below (50,000.01) and a trailing stop on that rung instead.
 */
function benchPosition(base: ReturnType<typeof positionBase>, i: number, trailing: boolean): PositionRow {
  const level = 9_999_999n - BigInt(i);
  if (!trailing) return { ...base, id: i + 1, stopLossTicks: level };
  // At the starting bid the level is where it would move to: it moves on the first rise.
  return {
    ...base,
    id: i + 1,
    stopLossTicks: 5_000_001n,
    trailingLevelTicks: level,
    trailingDistanceTicks: 10_000_000n - level,
  };
}

/**
 * Loads the N positions into the engine: the time its index took, and the heap after (MB). With
 * `trailing`, every TRAILING_EVERY-th position has its stop loss far below (50,000.01) and a trailing
 * stop at the level its stop loss would have had, so the same ticks cross the same levels.
 */
function loadPositions(
  engine: TriggerEngine,
  btc: Instrument,
  trailing: boolean,
): { loadMs: number; memory: number } {
  const base = positionBase(btc);
  const loadStart = performance.now();
  // Stop losses at distinct levels one cent apart from 99,999.99 down: the first 2,000 fire in the
  // warm-up ticks, the next 100,000 (10 % of the 1,000,000 then open) at the measured tick.
  engine.bulkLoad(
    (function* () {
      for (let i = 0; i < N; i++) yield benchPosition(base, i, trailing && i % TRAILING_EVERY === 0);
    })(),
  );
  const loadMs = performance.now() - loadStart;
  return { loadMs, memory: process.memoryUsage().heapUsed / 1024 / 1024 };
}

/**
 * The measured ticks: a quiet tick first (nothing crosses); then small crossings, as a running
 * server's ticks are (the code path is compiled by then); then the crash that crosses 100,000
 * stops at once, and the tick after it.
 */
function crossTicks(engine: TriggerEngine, price: Price) {
  let t0 = performance.now();
  const none = engine.detect(1_000);
  const quietMs = performance.now() - t0;
  // Warm-up: small crossings tick after tick, as a running server's ticks are (its code is hot).
  let warm = 0;
  for (let i = 1; i <= WARM_TICKS; i++) {
    price.bid = 10_000_000n - BigInt(i * WARM_EACH);
    warm += engine.detect(1_000 + i).length;
  }
  const open = engine.openCount;
  price.bid = 10_000_000n - BigInt(WARM_TICKS * WARM_EACH + 100_000); // the next 100,000 stops fire
  t0 = performance.now();
  const fired = engine.detect(1_100);
  const crossMs = performance.now() - t0;
  let trailingFired = 0;
  for (let i = 0; i < fired.length; i++) if (fired.reason(i) === 'trailing_stop') trailingFired++;
  t0 = performance.now();
  const after = engine.detect(1_101);
  const nextMs = performance.now() - t0;
  return {
    quietMs,
    none: none.length,
    warm,
    open,
    firedCount: fired.length,
    trailingFired,
    crossMs,
    after: after.length,
    nextMs,
    stillOpen: engine.openCount,
  };
}
