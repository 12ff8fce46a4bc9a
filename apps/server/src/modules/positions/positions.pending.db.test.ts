import { Code, type Direction, type PendingOrderType, pendingCrossed } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import { TriggerEngine } from './positions.engine.ts';
import { expectClosedWithinMargin, expectEquity } from './positions.equity.testing.ts';
import { reconcileMargins } from './positions.jobs.ts';
import { PositionsService } from './positions.service.ts';
import { longTicket, refusal, scriptedBtc, scriptedPositions, walkFrom } from './positions.testing.ts';

/**
 * Pending entry orders (issue 38 item 1) against the real ledger and database: placed at a quote
 * of what they hold (a ledger hold), filled by the trigger engine at the first tick that crosses
 * their level, through the market order's opening, exactly once (also with two nodes, and against
 * a cancel racing the tick), or cancelled, expired or rejected with the hold voided.
 */
/** The suite's parts: the database, and trading on it with its engine, on a scripted BTCUSDT path. */
type Suite = Awaited<ReturnType<typeof scriptedPositions>> & { t: TestDatabase; btc: Instrument };
let s: Suite;

// Wednesday 18 November 2026, 15:00 UTC (crypto trades around the clock).
const START = Date.UTC(2026, 10, 18, 15, 0, 0) / 1000;
let clock = START;
/** Scripted mids per second for BTCUSDT (ticks of 0.01); 2.00 each side: bid = mid − 200, ask = mid + 200. */
let path = new Map<number, bigint>();
const scripted = scriptedBtc(() => path);

beforeAll(async () => {
  const t = await openTestDatabase();
  const parts = await scriptedPositions(t.db, () => clock * 1000, scripted);
  s = { ...parts, t, btc: parts.market.instrument('BTCUSDT') as Instrument };
});
afterAll(() => s.t.close());

afterEach(() =>
  expectLedgerSound({
    db: s.t.db,
    ledger: s.ledger,
    audit: s.audit,
    subLedgers: [() => reconcileMargins(s.trading, s.ledger, s.audit)],
  }),
);

const newCustomer = async () => (await s.ctx.customer()).id;
const wallet = async (user: number) => {
  const usdt = (await s.ledger.balances('demo', user)).find((b) => b.asset === 'USDT');
  if (!usdt) throw new Error('no wallet');
  return usdt;
};
const minor = (text: string) => BigInt(text.replace('.', ''));
const price = (ticks: bigint) => (Number(ticks) / 100).toFixed(2);

function flat(mid: bigint, from = clock - 10, seconds = 20): void {
  path = new Map();
  for (let at = from; at < from + seconds; at++) path.set(at, mid);
}

/** A pending ticket around BTCUSDT 100,000.00: 0.10 lot at 2×, stops well away from the level. */
function pendingTicket(
  direction: Direction,
  type: PendingOrderType,
  level: bigint,
  over: Record<string, unknown> = {},
) {
  const sign = direction === 'long' ? 1n : -1n;
  return {
    ...longTicket(s.btc.id),
    direction,
    type,
    level: price(level),
    stopLoss: price(level - sign * 500_000n),
    takeProfit: price(level + sign * 2_000_000n),
    expiresAt: null,
    ...over,
  };
}

type PendingTicket = ReturnType<typeof pendingTicket>;

function place(user: number, ticket: PendingTicket, requestId: string) {
  const { quoteId } = s.trading.previewPending(ticket, { customerId: user, book: 'demo' });
  return s.trading.placePending(user, 'demo', 'en', { ...ticket, quoteId, requestId });
}

describe(`pending entry orders on ${TEST_DB}`, () => {
  it('places a buy limit: the quote states what is held, the hold leaves the available balance; another customer sees nothing', async () => {
    clock = START + 100;
    flat(10_000_000n); // bid 99,998.00, ask 100,002.00
    const user = await newCustomer();
    const before = await wallet(user);
    const ticket = pendingTicket('long', 'limit', 9_900_000n);
    const figures = s.trading.previewPending(ticket, { customerId: user, book: 'demo' });
    expect(figures).toMatchObject({ level: '99000.00', ask: '100002.00' });
    expect(minor(figures.held)).toBe(minor(figures.margin) + minor(figures.fee));
    const order = await s.trading.placePending(user, 'demo', 'en', {
      ...ticket,
      quoteId: figures.quoteId,
      requestId: 'pending-place-1',
    });
    expect(order).toMatchObject({ state: 'open', type: 'limit', level: '99000.00', held: figures.held });
    const after = await wallet(user);
    expect(after.available).toBe(before.available - minor(figures.held) / 1n);
    expect(after.balance).toBe(before.balance);
    // The same request again answers the same order (one hold).
    const again = await s.trading.placePending(user, 'demo', 'en', {
      ...ticket,
      quoteId: figures.quoteId,
      requestId: 'pending-place-1',
    });
    expect(again.id).toBe(order.id);
    expect((await wallet(user)).available).toBe(after.available);
    expect((await s.trading.listPending(user, 'demo', {})).items.map((o) => o.id)).toEqual([order.id]);

    const other = await newCustomer();
    expect((await refusal(s.trading.getPending(other, 'demo', order.id))).code).toBe(Code.NOT_FOUND);
    expect((await refusal(s.trading.cancelPending(other, 'demo', order.id))).code).toBe(Code.NOT_FOUND);
    expect((await refusal(s.trading.getPending(user, 'live', order.id))).code).toBe(Code.NOT_FOUND);
    expect((await s.trading.listPending(other, 'demo', {})).items).toEqual([]);

    // Levels the s.market has already crossed are refused (10070): they would fill at once.
    for (const wrong of [
      pendingTicket('long', 'limit', 10_100_000n),
      pendingTicket('long', 'stop', 9_900_000n),
      pendingTicket('short', 'limit', 9_900_000n),
      pendingTicket('short', 'stop', 10_100_000n),
    ]) {
      const refused = await refusal(() =>
        s.trading.previewPending(wrong, { customerId: user, book: 'demo' }),
      );
      expect(refused.code).toBe(Code.PENDING_ORDER_INVALID);
    }
    const past = pendingTicket('long', 'limit', 9_900_000n, {
      expiresAt: new Date((clock - 1) * 1000).toISOString(),
    });
    expect(
      (await refusal(() => s.trading.previewPending(past, { customerId: user, book: 'demo' }))).code,
    ).toBe(Code.INVALID_INPUT);

    const cancelled = await s.trading.cancelPending(user, 'demo', order.id);
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect((await wallet(user)).available).toBe(before.available);
    expect((await refusal(s.trading.cancelPending(user, 'demo', order.id))).code).toBe(
      Code.PENDING_ORDER_INVALID,
    );
    expect(
      (await s.trading.listPending(user, 'demo', { status: 'history' })).items.map((o) => o.state),
    ).toEqual(['cancelled']);
  });

  it('fills at the first tick that crosses the level, at that price, once, through the s.market opening; a gap says so', async () => {
    clock = START + 1000;
    flat(10_000_000n);
    const user = await newCustomer();
    const before = await wallet(user);
    const limit = await place(user, pendingTicket('long', 'limit', 9_950_000n), 'pending-fill-1');
    const stop = await place(user, pendingTicket('short', 'stop', 9_950_000n), 'pending-fill-2');
    await s.engine.idle();
    await s.engine.tick(clock); // its own second: not yet live
    path.set(clock + 1, 9_960_000n); // ask 99,602.00, bid 99,598.00: neither crossed
    path.set(clock + 2, 9_940_000n); // ask 99,402.00: the limit fills better than its level; bid 99,398.00: the stop gaps
    path.set(clock + 3, 9_900_000n);
    for (let at = clock + 1; at <= clock + 3; at++) await s.engine.tick(at);
    await s.engine.idle();
    const filledLimit = await s.trading.getPending(user, 'demo', limit.id);
    expect(filledLimit).toMatchObject({ state: 'filled', fillPrice: '99402.00', gapped: true });
    const filledStop = await s.trading.getPending(user, 'demo', stop.id);
    expect(filledStop).toMatchObject({ state: 'filled', fillPrice: '99398.00', gapped: true });
    const position = await s.trading.get(user, 'demo', filledLimit.positionId as number);
    expect(position).toMatchObject({
      status: 'open',
      openPrice: '99402.00',
      direction: 'long',
      stopLoss: '94500.00',
    });
    const short = await s.trading.get(user, 'demo', filledStop.positionId as number);
    expect(short).toMatchObject({ openPrice: '99398.00', direction: 'short' });
    const w = await wallet(user);
    // Nothing held any more but the positions' margins; margins and fees at the fill prices left the wallet.
    const spent = [position, short].reduce((sum, p) => sum + minor(p.margin) + minor(p.fee), 0n);
    expect(w.available).toBe(before.available - spent);
    const opens = await s.t.db.query(
      "SELECT id FROM ledger_entries WHERE idempotency_key LIKE 'trade-open:%:pending:%' AND idempotency_key IN ($1, $2)",
      [`trade-open:${user}:pending:${limit.id}`, `trade-open:${user}:pending:${stop.id}`],
    );
    expect(opens).toHaveLength(2);
    const texts = (await s.notices.list(user, 'en')).map((n) => n.noticeContent);
    expect(texts.filter((n) => n.includes('gapped'))).toHaveLength(2);
    for (const p of [position, short]) await s.trading.close(user, 'demo', p.id);
  });

  it('expires at its date (the job voids the hold), and a gap the balance cannot cover is rejected with its reason', async () => {
    clock = START + 2000;
    flat(10_000_000n);
    const user = await newCustomer();
    const before = await wallet(user);
    const expiring = await place(
      user,
      pendingTicket('long', 'limit', 9_900_000n, { expiresAt: new Date((clock + 30) * 1000).toISOString() }),
      'pending-expire-1',
    );
    const stop = await place(
      user,
      pendingTicket('long', 'stop', 10_050_000n, { lots: '1.00' }),
      'pending-reject-1',
    );
    // The rest of the balance is held elsewhere (a withdrawal on its way).
    const rest = (await wallet(user)).available;
    const other = await s.ledger.hold({
      book: 'demo',
      accountId: await s.ledger.walletAccount('demo', user, 'USDT'),
      amount: rest,
      idempotencyKey: `test-withdrawal:${user}`,
      actor: `user:${user}`,
    });
    await s.engine.idle();
    await s.engine.tick(clock);
    path.set(clock + 1, 10_500_000n); // ask 105,002.00: the stop gaps far through 100,500.00
    await s.engine.tick(clock + 1);
    expect(await s.trading.getPending(user, 'demo', stop.id)).toMatchObject({
      state: 'rejected',
      reason: 'insufficient_funds',
      fillPrice: '105002.00',
      positionId: null,
    });
    clock += 31;
    expect((await s.trading.sweepPending()).expired).toBeGreaterThanOrEqual(1);
    expect(await s.trading.getPending(user, 'demo', expiring.id)).toMatchObject({ state: 'expired' });
    await s.ledger.voidHold({
      holdId: other.holdId,
      idempotencyKey: `test-withdrawal-void:${user}`,
      actor: 'test',
    });
    expect((await wallet(user)).available).toBe(before.available);
    const texts = (await s.notices.list(user, 'en')).map((n) => n.noticeContent);
    expect(texts.some((n) => n.includes('expired'))).toBe(true);
    expect(texts.some((n) => n.includes('did not cover'))).toBe(true);
  });

  it('edits the level: what is held changes only at a confirmed quote of the new figures', async () => {
    clock = START + 3000;
    flat(10_000_000n);
    const user = await newCustomer();
    const before = await wallet(user);
    const order = await place(user, pendingTicket('long', 'limit', 9_900_000n), 'pending-edit-1');
    const moved = pendingTicket('long', 'limit', 9_800_000n);
    const edit = { id: order.id, level: moved.level, stopLoss: moved.stopLoss, takeProfit: moved.takeProfit };
    expect((await refusal(s.trading.editPending(user, 'demo', edit))).data).toEqual([
      { path: 'quoteId', issue: 'required' },
    ]);
    const { quoteId, held } = s.trading.previewPending(moved, { customerId: user, book: 'demo' });
    const edited = await s.trading.editPending(user, 'demo', { ...edit, quoteId });
    expect(edited).toMatchObject({ level: '98000.00', held, state: 'open' });
    expect((await wallet(user)).available).toBe(before.available - minor(held));
    // Stops alone: nothing held changes, no quote needed.
    const stops = await s.trading.editPending(user, 'demo', { ...edit, stopLoss: '95000.00' });
    expect(stops.stopLoss).toBe('95000.00');
    await s.trading.cancelPending(user, 'demo', order.id);
    expect((await wallet(user)).available).toBe(before.available);
  });

  it('a cancel racing the tick that crosses the level: the order fills or cancels, never both', async () => {
    for (let round = 0; round < 6; round++) {
      clock = START + 4000 + round * 100;
      flat(10_000_000n);
      const user = await newCustomer();
      const before = await wallet(user);
      const order = await place(user, pendingTicket('long', 'limit', 9_990_000n), `pending-race-${round}`);
      await s.engine.idle();
      await s.engine.tick(clock);
      path.set(clock + 1, 9_980_000n);
      const [, cancel] = await Promise.allSettled([
        s.engine.tick(clock + 1),
        s.trading.cancelPending(user, 'demo', order.id),
      ]);
      await s.engine.idle();
      const ended = await s.trading.getPending(user, 'demo', order.id);
      expect(['filled', 'cancelled']).toContain(ended.state);
      expect(cancel.status === 'fulfilled').toBe(ended.state === 'cancelled');
      const positions = (await s.trading.list(user, 'demo', {})).items;
      expect(positions).toHaveLength(ended.state === 'filled' ? 1 : 0);
      const w = await wallet(user);
      const margins = positions.reduce((sum, p) => sum + minor(p.margin) + minor(p.fee), 0n);
      expect(w.available).toBe(before.available - margins);
      for (const p of positions) await s.trading.close(user, 'demo', p.id);
    }
  });

  it('a withdrawal of everything free racing the fill never takes the held money: the fill opens', async () => {
    clock = START + 5000;
    flat(10_000_000n);
    const user = await newCustomer();
    const order = await place(user, pendingTicket('long', 'limit', 9_990_000n), 'pending-withdraw-race');
    const walletId = await s.ledger.walletAccount('demo', user, 'USDT');
    const out = await s.ledger.systemAccount('demo', 'USDT', 'pending_withdrawals');
    const placed = await wallet(user);
    let n = 0;
    let withdrawn = 0n;
    const withdrawAllFree = async () => {
      const amount = (await wallet(user)).available;
      if (amount <= 0n) return;
      const postings = [
        { accountId: walletId, amount: -amount },
        { accountId: out, amount },
      ];
      const request = { book: 'demo' as const, kind: 'withdrawal' as const, actor: `user:${user}`, postings };
      const taken = await s.ledger
        .transfer({ ...request, idempotencyKey: `test-withdraw:${user}:${++n}` })
        .then(
          () => amount,
          () => 0n,
        );
      withdrawn += taken;
    };
    // Whatever the fill does with the hold, a withdrawal of all that is free comes right after it.
    const voidHold = s.ledger.voidHold.bind(s.ledger);
    s.ledger.voidHold = async (request) => {
      const done = await voidHold(request);
      if (request.idempotencyKey.startsWith('pending-filling:')) await withdrawAllFree();
      return done;
    };
    try {
      await s.engine.idle();
      await s.engine.tick(clock);
      path.set(clock + 1, 9_980_000n);
      await Promise.all([s.engine.tick(clock + 1), withdrawAllFree(), withdrawAllFree()]);
      await s.engine.idle();
    } finally {
      s.ledger.voidHold = voidHold;
    }
    const filled = await s.trading.getPending(user, 'demo', order.id);
    expect(filled.state).toBe('filled');
    const opened = await s.trading.get(user, 'demo', filled.positionId as number);
    const position = { id: opened.id, margin: minor(opened.margin), fee: minor(opened.fee) };
    const w = await wallet(user);
    const rest = minor(order.held) - position.margin - position.fee;
    // All that was free went; the hold opened the position (what it did not take was free again).
    expect(withdrawn >= placed.available && withdrawn <= placed.available + rest).toBe(true);
    expect(w).toMatchObject({ balance: placed.balance - withdrawn - position.fee, held: position.margin });
    await s.trading.close(user, 'demo', position.id);
  });

  it('two nodes run the same tick: the order fills once', async () => {
    clock = START + 6000;
    flat(10_000_000n);
    const otherNode = new PositionsService({
      db: s.t.db,
      ledger: new LedgerService(s.t.db, s.audit),
      market: s.market,
      bus: s.bus,
      notices: s.notices,
      now: () => clock * 1000,
      quote: scripted,
    });
    const otherEngine = new TriggerEngine({ trading: otherNode, db: s.t.db, bus: s.bus });
    await otherEngine.start();
    const user = await newCustomer();
    const orders = [];
    for (let i = 0; i < 4; i++)
      orders.push(
        await place(
          user,
          pendingTicket(i % 2 ? 'short' : 'long', 'stop', i % 2 ? 9_980_000n : 10_020_000n),
          `pending-nodes-${i}`,
        ),
      );
    const filledBefore = s.engine.pendings.stats.filled;
    await Promise.all([s.engine.idle(), otherEngine.idle()]);
    expect(otherEngine.pendings.openCount).toBe(s.engine.pendings.openCount);
    await Promise.all([s.engine.tick(clock), otherEngine.tick(clock)]);
    path.set(clock + 1, 10_030_000n); // the buy stops
    path.set(clock + 2, 9_970_000n); // the sell stops
    await Promise.all([s.engine.tick(clock + 1), otherEngine.tick(clock + 1)]);
    await Promise.all([s.engine.tick(clock + 2), otherEngine.tick(clock + 2)]);
    await Promise.all([s.engine.idle(), otherEngine.idle()]);
    for (const order of orders) {
      expect((await s.trading.getPending(user, 'demo', order.id)).state).toBe('filled');
      const opens = await s.t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
        `trade-open:${user}:pending:${order.id}`,
      ]);
      expect(opens).toHaveLength(1);
    }
    expect((await s.trading.list(user, 'demo', {})).items).toHaveLength(4);
    expect(s.engine.pendings.stats.filled - filledBefore + otherEngine.pendings.stats.filled).toBe(4);
    // The other node's claim attempts were lost, not failed.
    expect(s.engine.pendings.stats.failed + otherEngine.pendings.stats.failed).toBe(0);
    otherEngine.stop();
    for (const p of (await s.trading.list(user, 'demo', {})).items) await s.trading.close(user, 'demo', p.id);
  });

  it('property: over random price paths every order fills at most once, at its first crossing, at that tick’s price (a limit no worse than its level); the equity rules hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Moves of up to 300.00 a second, gaps of up to 3,000.00 and 60,000.00 (through stops and margin).
        fc.array(
          fc.oneof(
            { weight: 20, arbitrary: fc.integer({ min: -30_000, max: 30_000 }) },
            { weight: 2, arbitrary: fc.integer({ min: -300_000, max: 300_000 }) },
            { weight: 2, arbitrary: fc.integer({ min: -6_000_000, max: 6_000_000 }) },
          ),
          { minLength: 5, maxLength: 30 },
        ),
        fc.array(
          fc.record({
            long: fc.boolean(),
            limit: fc.boolean(),
            offset: fc.integer({ min: 1, max: 100 }),
            leverage: fc.constantFrom(1, 2),
            sl: fc.integer({ min: 1, max: 200 }), // the stops 10.00 to 2,000.00 from the level
            tp: fc.integer({ min: 1, max: 200 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (moves, specs) => {
          clock += 500;
          const t0 = clock;
          path = walkFrom(t0, moves, 1_000_000n);
          const user = await newCustomer();
          const start = await wallet(user);
          const placed = [];
          for (const [i, spec] of specs.entries()) {
            const direction: Direction = spec.long ? 'long' : 'short';
            const type: PendingOrderType = spec.limit ? 'limit' : 'stop';
            const side = spec.long ? 10_000_200n : 9_999_800n;
            const away = BigInt(spec.offset) * 1000n;
            const below = spec.long === spec.limit;
            const level = below ? side - away : side + away;
            const sign = spec.long ? 1n : -1n;
            const stops = {
              leverage: spec.leverage,
              stopLoss: price(level - sign * BigInt(spec.sl) * 1000n),
              takeProfit: price(level + sign * BigInt(spec.tp) * 1000n),
            };
            const ticket = pendingTicket(direction, type, level, stops);
            const order = await place(user, ticket, `pending-prop-${t0}-${i}`);
            placed.push({ order, direction, type, level });
          }
          await s.engine.idle();
          for (let at = t0; at <= t0 + moves.length; at++) await s.engine.tick(at);
          await s.engine.idle();
          await expectEquity(s, user);
          for (const { order, direction, type, level } of placed) {
            let first: { at: number; ticks: bigint } | null = null;
            for (let at = t0 + 1; at <= t0 + moves.length && !first; at++) {
              const q = scripted(s.btc, at);
              if (pendingCrossed(direction, type, level, q.bid, q.ask))
                first = { at, ticks: direction === 'long' ? q.ask : q.bid };
            }
            const now = await s.trading.getPending(user, 'demo', order.id);
            const opens = await s.t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
              `trade-open:${user}:pending:${order.id}`,
            ]);
            if (!first) {
              expect(now.state).toBe('open');
              expect(opens).toHaveLength(0);
              await s.trading.cancelPending(user, 'demo', order.id);
              continue;
            }
            expect(now.fillPrice).toBe(price(first.ticks));
            if (now.state === 'rejected') {
              // Only away from its level (checked at placing): a gap past its stops or their stop-out.
              expect(now.reason).toBe('unreasonable_stops');
              expect(opens).toHaveLength(0);
              expect(first.ticks).not.toBe(level);
              continue;
            }
            expect(now.state).toBe('filled');
            expect(opens).toHaveLength(1);
            if (type === 'limit') {
              const fill = first.ticks;
              expect(direction === 'long' ? fill <= level : fill >= level).toBe(true);
            }
            const position = await s.trading.get(user, 'demo', now.positionId as number);
            expect(position.openPrice).toBe(price(first.ticks));
            expect(Date.parse(position.openTime)).toBeGreaterThan(0);
          }
          // Every position closed (by its stops, or now): the wallet less fees plus results, no loss > margin.
          let fees = 0n;
          let realised = 0n;
          for (const { order } of placed) {
            const id = (await s.trading.getPending(user, 'demo', order.id)).positionId;
            if (id === null) continue;
            if ((await s.trading.get(user, 'demo', id)).status === 'open')
              await s.trading.close(user, 'demo', id);
            const closed = expectClosedWithinMargin(await s.trading.get(user, 'demo', id));
            fees += minor(closed.fee);
            realised += closed.result;
          }
          await expectEquity(s, user);
          const end = await wallet(user);
          expect(end.held).toBe(0n);
          expect(end.balance).toBe(start.balance - fees + realised);
        },
      ),
      { numRuns: 20 },
    );
  }, 240_000);
});
