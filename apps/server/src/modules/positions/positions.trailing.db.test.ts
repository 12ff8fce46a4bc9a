import { Code, type Direction, trailedLevel } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { createMemoryBus } from '../../platform/bus.ts';
import type { TestContext } from '../../test/context.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { TriggerEngine } from './positions.engine.ts';
import { reconcileMargins } from './positions.jobs.ts';
import { PositionsService } from './positions.service.ts';
import { longTicket, placeOrder, refusal, scriptedBtc, scriptedPositions } from './positions.testing.ts';

/**
 * Trailing stops (issue 38 item 2) against the real ledger and database: opened with a position or
 * set on it, moved by the trigger engine on ticks (only ever tighter), written on a cadence and at
 * the close, and closed once at the first tick that comes back to the level. Prices come from a
 * scripted path per test; ticks are driven by hand.
 */
let t: TestDatabase;
let ctx: TestContext;
let ledger: LedgerService;
let audit: AuditService;
let market: MarketService;
let trading: PositionsService;
let engine: TriggerEngine;
let bus: ReturnType<typeof createMemoryBus>;
let notices: NoticesService;
let btc: Instrument;

// Wednesday 18 November 2026, 15:00 UTC (crypto trades around the clock).
const START = Date.UTC(2026, 10, 18, 15, 0, 0) / 1000;
let clock = START;
/** Scripted mids per second for BTCUSDT (ticks of 0.01); the spread is 2.00 each side. */
let path = new Map<number, bigint>();
const SPREAD = 200n;

const scripted = scriptedBtc(() => path);

beforeAll(async () => {
  t = await openTestDatabase();
  ({ audit, ledger, market, ctx, notices, bus, trading, engine } = await scriptedPositions(
    t.db,
    () => clock * 1000,
    scripted,
  ));
  btc = market.instrument('BTCUSDT') as Instrument;
});
afterAll(() => t.close());

afterEach(() =>
  expectLedgerSound({
    db: t.db,
    ledger,
    audit,
    subLedgers: [() => reconcileMargins(trading, ledger, audit)],
  }),
);

async function newCustomer(): Promise<number> {
  return (await ctx.customer()).id;
}

/** A flat path at `mid` from `from` for `seconds`. */
function flat(mid: bigint, from = clock - 10, seconds = 20): void {
  path = new Map();
  for (let s = from; s < from + seconds; s++) path.set(s, mid);
}

const ticket = (over: Record<string, unknown> = {}) => ({ ...longTicket(btc.id), ...over });
const shortTicket = (over: Record<string, unknown> = {}) =>
  ticket({ direction: 'short', stopLoss: '110000.00', takeProfit: '80000.00', ...over });

/** The trailing level as written in the database (ticks). */
async function writtenLevel(id: number): Promise<bigint | null> {
  const [row] = await t.db.query<{ level: string | null }>(
    'SELECT trailing_level_ticks AS level FROM positions WHERE id = $1',
    [id],
  );
  return row?.level == null ? null : BigInt(row.level);
}

describe(`trailing stops on ${TEST_DB}`, () => {
  it('opens with a trailing stop: the preview and the position show where it starts; bad distances are refused', async () => {
    clock = START + 100;
    flat(10_000_000n);
    const user = await newCustomer();
    // bid 99,998.00 − 500.00; ask 100,002.00 + 300.00
    const figures = trading.preview(ticket({ trailingDistance: '500.00' }), {
      customerId: user,
      book: 'demo',
    });
    expect(figures.trailingLevel).toBe('99498.00');
    expect(trading.preview(ticket(), { customerId: user, book: 'demo' }).trailingLevel).toBeNull();
    const long = await placeOrder(trading, user, ticket({ trailingDistance: '500.00' }), 'trail-open-1');
    expect(long).toMatchObject({
      trailingDistance: '500.00',
      trailingLevel: '99498.00',
      stopLoss: '90000.00',
    });
    const short = await placeOrder(trading, user, shortTicket({ trailingDistance: '300' }), 'trail-open-2');
    expect(short).toMatchObject({ trailingDistance: '300.00', trailingLevel: '100302.00' });
    const plain = await placeOrder(trading, user, ticket(), 'trail-open-3');
    expect(plain).toMatchObject({ trailingDistance: null, trailingLevel: null });
    expect(await writtenLevel(long.id)).toBe(9_949_800n);

    const preview = (over: Record<string, unknown>) => () =>
      trading.preview(ticket(over), { customerId: user, book: 'demo' });
    expect(await refusal(preview({ trailingDistance: '500.001' }))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'trailingDistance', issue: 'too_many_decimals' }],
    });
    expect(await refusal(preview({ trailingDistance: '0.00' }))).toEqual({
      code: Code.INVALID_INPUT,
      data: [{ path: 'trailingDistance', issue: 'unreasonable' }],
    });
    // A long's level would be at or below zero.
    expect((await refusal(preview({ trailingDistance: '99998.00' }))).data).toEqual([
      { path: 'trailingDistance', issue: 'unreasonable' },
    ]);
    // The order repeats its ticket: another distance (or none) than the quote's is not what was confirmed.
    const { quoteId } = trading.preview(ticket({ trailingDistance: '500.00' }), {
      customerId: user,
      book: 'demo',
    });
    const other = trading.open(user, 'demo', 'en', {
      ...ticket({ trailingDistance: '600.00' }),
      quoteId,
      requestId: 'trail-open-4',
    });
    expect((await refusal(other)).data).toEqual([{ path: 'quoteId', issue: 'other_ticket' }]);
    const none = trading.open(user, 'demo', 'en', { ...ticket(), quoteId, requestId: 'trail-open-5' });
    expect((await refusal(none)).data).toEqual([{ path: 'quoteId', issue: 'other_ticket' }]);
    for (const p of [long, short, plain]) await trading.close(user, 'demo', p.id);
  });

  it('the engine moves a long’s level only up, writes it on demand, and closes at the first tick back at it, once, with a notice', async () => {
    clock = START + 1000;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ trailingDistance: '500.00' }), 'trail-long-1');
    await engine.idle();
    await engine.tick(clock); // its own second: not yet live
    path.set(clock + 1, 10_020_000n); // bid 100,198.00: level 99,698.00
    path.set(clock + 2, 10_010_000n); // bid 100,098.00: the level stays
    path.set(clock + 3, 10_040_000n); // bid 100,398.00: level 99,898.00
    await engine.tick(clock + 1);
    expect(engine.trails.levelOf(order.id)).toBe(9_969_800n);
    await engine.tick(clock + 2);
    expect(engine.trails.levelOf(order.id)).toBe(9_969_800n);
    await engine.tick(clock + 3);
    expect(engine.trails.levelOf(order.id)).toBe(9_989_800n);
    await engine.saveTrails();
    expect((await trading.get(user, 'demo', order.id)).trailingLevel).toBe('99898.00');
    path.set(clock + 4, 9_990_300n); // bid 99,901.00: above the level
    path.set(clock + 5, 9_990_000n); // bid 99,898.00: back at it
    path.set(clock + 6, 9_900_000n);
    await engine.tick(clock + 6);
    const closed = await trading.get(user, 'demo', order.id);
    expect(closed).toMatchObject({
      status: 'closed',
      closeReason: 'trailing_stop',
      closePrice: '99898.00',
      trailingLevel: '99898.00',
      profit: '-10.400000', // (99,898.00 − 100,002.00) × 0.1
    });
    await engine.tick(clock + 7);
    const keys = await t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
      `trade-close:${order.id}`,
    ]);
    expect(keys).toHaveLength(1);
    const [notice] = await notices.list(user, 'en');
    expect(notice?.noticeContent).toContain('trailing stop');
    expect(notice?.noticeContent).toContain('99898.00');
    const [inArabic] = await notices.list(user, 'ar');
    expect(inArabic?.noticeContent).toContain('المتحرك');
  });

  it('a short’s level follows the ask down and is written with the close, even when not written before', async () => {
    clock = START + 2000;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(
      trading,
      user,
      shortTicket({ trailingDistance: '300.00' }),
      'trail-short-1',
    );
    expect(order.trailingLevel).toBe('100302.00');
    await engine.idle();
    await engine.tick(clock);
    await engine.saveTrails(); // nothing moved yet
    path.set(clock + 1, 9_980_000n); // ask 99,802.00: level 100,102.00
    path.set(clock + 2, 9_960_000n); // ask 99,602.00: level 99,902.00
    path.set(clock + 3, 9_990_000n); // ask 99,902.00: back at it
    await engine.tick(clock + 3);
    expect(await trading.get(user, 'demo', order.id)).toMatchObject({
      status: 'closed',
      closeReason: 'trailing_stop',
      closePrice: '99902.00',
      trailingLevel: '99902.00',
    });
  });

  it('a stop loss tighter than the trailing level closes as a stop loss; a trailing stop never fires before it is crossed', async () => {
    clock = START + 2500;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(
      trading,
      user,
      ticket({ trailingDistance: '2000.00', stopLoss: '99500.00' }),
      'trail-sl-1',
    );
    expect(order.trailingLevel).toBe('97998.00');
    await engine.idle();
    await engine.tick(clock);
    path.set(clock + 1, 9_900_000n); // bid 98,998.00: through the stop loss, not the trailing level
    await engine.tick(clock + 1);
    expect(await trading.get(user, 'demo', order.id)).toMatchObject({
      closeReason: 'stop_loss',
      closePrice: '98998.00',
    });
  });

  it('changing the stops: the same distance keeps the level, a new one restarts it, null removes it, none keeps it', async () => {
    clock = START + 3000;
    flat(10_000_000n, clock - 10, 40);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ trailingDistance: '500.00' }), 'trail-change-1');
    await engine.idle();
    await engine.tick(clock);
    path.set(clock + 1, 10_020_000n); // bid 100,198.00: level 99,698.00
    for (let s = clock + 2; s < clock + 30; s++) path.set(s, 10_020_000n);
    await engine.tick(clock + 1);
    await engine.saveTrails();
    clock += 2;
    const update = (trailing?: string | null) =>
      trading.updateStops(user, 'demo', order.id, '90000.00', '120000.00', trailing);
    expect(await update('500.00')).toMatchObject({ trailingDistance: '500.00', trailingLevel: '99698.00' });
    expect(await update(undefined)).toMatchObject({ trailingDistance: '500.00', trailingLevel: '99698.00' });
    await engine.idle();
    expect(engine.trails.levelOf(order.id)).toBe(9_969_800n);
    // A new distance starts from the closing price now: 100,198.00 − 200.00.
    expect(await update('200.00')).toMatchObject({ trailingDistance: '200.00', trailingLevel: '99998.00' });
    await engine.idle();
    expect(engine.trails.levelOf(order.id)).toBe(9_999_800n);
    expect((await refusal(update('200.005'))).data).toEqual([
      { path: 'trailingDistance', issue: 'too_many_decimals' },
    ]);
    expect((await refusal(update('0'))).data).toEqual([{ path: 'trailingDistance', issue: 'unreasonable' }]);
    expect(await update(null)).toMatchObject({ trailingDistance: null, trailingLevel: null });
    await engine.idle();
    expect(engine.trails.levelOf(order.id)).toBeNull();
    // Removed: a fall through the old level closes nothing.
    path.set(clock + 1, 9_990_000n);
    await engine.tick(clock + 1);
    expect((await trading.get(user, 'demo', order.id)).status).toBe('open');
    await trading.close(user, 'demo', order.id);
  });

  it('a restarted engine resumes from the written level (never looser), and a node that starts leading takes the level another wrote', async () => {
    clock = START + 4000;
    flat(10_000_000n, clock - 10, 40);
    const otherNode = new PositionsService({
      db: t.db,
      ledger: new LedgerService(t.db, audit),
      market,
      bus,
      notices,
      now: () => clock * 1000,
      quote: scripted,
    });
    const follower = new TriggerEngine({ trading: otherNode, db: t.db, bus });
    await follower.start();
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ trailingDistance: '500.00' }), 'trail-restart-1');
    await Promise.all([engine.idle(), follower.idle()]);
    expect(follower.trails.levelOf(order.id)).toBe(9_949_800n);
    await engine.tick(clock);
    path.set(clock + 1, 10_020_000n); // level 99,698.00, written
    path.set(clock + 2, 10_040_000n); // level 99,898.00, not yet written
    await engine.tick(clock + 1);
    await engine.saveTrails();
    await engine.tick(clock + 2);
    expect(engine.trails.levelOf(order.id)).toBe(9_989_800n);
    const written = (await writtenLevel(order.id)) as bigint;
    expect(written).toBe(9_969_800n);
    engine.stop(); // the node goes down before its next write
    const restarted = new TriggerEngine({ trading, db: t.db, bus });
    await restarted.start();
    expect((restarted.trails.levelOf(order.id) as bigint) >= written).toBe(true);
    // The follower starts leading: it takes the written level, not the one it indexed at the open.
    path.set(clock + 3, 10_015_000n); // bid 100,148.00: 99,648.00 is below the written level
    await follower.tick(clock + 3);
    expect(follower.trails.levelOf(order.id)).toBe(9_969_800n);
    // Both run the tick that comes back to the level: it closes once.
    path.set(clock + 4, 9_960_000n); // bid 99,598.00: through 99,698.00
    await Promise.all([restarted.tick(clock + 4), follower.tick(clock + 4)]);
    expect(await trading.get(user, 'demo', order.id)).toMatchObject({
      status: 'closed',
      closeReason: 'trailing_stop',
      closePrice: '99598.00',
    });
    const keys = await t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
      `trade-close:${order.id}`,
    ]);
    expect(keys).toHaveLength(1);
    const closedNotices = (await notices.list(user, 'en')).filter((n) =>
      n.noticeContent.includes('trailing'),
    );
    expect(closedNotices).toHaveLength(1);
    follower.stop();
    engine = restarted;
  });

  it('property: over random price paths a trailing stop only tightens, closes once at its first crossing, and never when not crossed', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Moves of up to 400.00 a second, now and then a gap of up to 5,000.00.
        fc.array(
          fc.oneof(
            { weight: 20, arbitrary: fc.integer({ min: -40_000, max: 40_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: -500_000, max: 500_000 }) },
          ),
          { minLength: 10, maxLength: 40 },
        ),
        fc.array(
          fc.record({
            long: fc.boolean(),
            trail: fc.integer({ min: 1, max: 200 }), // 10.00 to 2,000.00
            sl: fc.integer({ min: 1, max: 200 }),
            tp: fc.integer({ min: 1, max: 400 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (moves, specs) => {
          clock += 500;
          const t0 = clock;
          flat(10_000_000n, t0 - 10, 11);
          let mid = 10_000_000n;
          moves.forEach((m, i) => {
            mid = mid + BigInt(m) > 1_000_000n ? mid + BigInt(m) : 1_000_000n;
            path.set(t0 + 1 + i, mid);
          });
          const user = await newCustomer();
          const opened = [];
          for (const [i, spec] of specs.entries()) {
            const direction: Direction = spec.long ? 'long' : 'short';
            const sign = spec.long ? 1n : -1n;
            const open = spec.long ? 10_000_200n : 9_999_800n;
            const distance = BigInt(spec.trail) * 1000n;
            const sl = open - sign * BigInt(spec.sl) * 1000n;
            const tp = open + sign * BigInt(spec.tp) * 1000n;
            const order = await placeOrder(
              trading,
              user,
              ticket({
                direction,
                stopLoss: (Number(sl) / 100).toFixed(2),
                takeProfit: (Number(tp) / 100).toFixed(2),
                trailingDistance: (Number(distance) / 100).toFixed(2),
              }),
              `trail-prop-${t0}-${i}`,
            );
            opened.push({ order, direction, distance, sl, tp, levels: [] as (bigint | null)[] });
          }
          await engine.idle();
          await engine.tick(t0);
          for (let s = t0 + 1; s <= t0 + moves.length; s++) {
            await engine.tick(s);
            for (const o of opened) o.levels.push(engine.trails.levelOf(o.order.id));
          }
          await engine.saveTrails();
          for (const { order, direction, distance, sl, tp, levels } of opened) {
            const long = direction === 'long';
            const got = await trading.get(user, 'demo', order.id);
            const liq = BigInt(got.liquidationPrice.replace('.', ''));
            // The oracle: the level after each second, and the first crossing after the position went live.
            let level = trailedLevel(direction, null, long ? 9_999_800n : 10_000_200n, distance);
            const oracle: bigint[] = [];
            let expected: { s: number; reason: string; price: bigint; level: bigint } | null = null;
            for (let s = t0 + 1; s <= t0 + moves.length && !expected; s++) {
              const m = path.get(s) as bigint;
              const price = long ? m - SPREAD : m + SPREAD;
              const tighter = long ? level > sl : level < sl;
              const crossed = long ? price <= level : price >= level;
              // A tick that does not come back to the level moves it, also when another stop closes the position.
              const next = crossed ? level : trailedLevel(direction, level, price, distance);
              if (long ? price >= tp : price <= tp)
                expected = { s, reason: 'take_profit', price, level: next };
              else if (crossed && tighter) expected = { s, reason: 'trailing_stop', price, level };
              else if (long ? price <= sl : price >= sl)
                expected = { s, reason: 'stop_loss', price, level: next };
              else if (long ? price <= liq : price >= liq)
                expected = { s, reason: 'stop_out', price, level: next };
              else oracle.push(next);
              level = next;
            }
            // Only tightens, and is where the oracle says, while the position is open.
            const seen = levels.filter((l): l is bigint => l !== null);
            expect(seen).toEqual(oracle);
            seen.forEach((now, i) => {
              const before = seen[i - 1] ?? now;
              expect(long ? now >= before : now <= before).toBe(true);
            });
            if (!expected) {
              expect(got.status).toBe('open');
              expect(await writtenLevel(order.id)).toBe(level);
              await trading.close(user, 'demo', order.id);
              continue;
            }
            expect(got).toMatchObject({ status: 'closed', closeReason: expected.reason });
            expect(BigInt((got.closePrice as string).replace('.', ''))).toBe(expected.price);
            expect(await writtenLevel(order.id)).toBe(expected.level);
            const keys = await t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
              `trade-close:${order.id}`,
            ]);
            expect(keys).toHaveLength(1);
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
