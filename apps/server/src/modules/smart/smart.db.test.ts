import { Code, formatDisplay, type SmartPlanDetail } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { scriptedSource, smartProductBody, testSmart } from '../../test/smart.ts';
import { refusal } from '../positions/positions.testing.ts';
import { reconcileSubLedger } from '../products/reconciliation.ts';
import { barsOf } from './smart.bars.ts';
import { runEngine } from './smart.engine.ts';
import { netOfPosition, type SmartService } from './smart.service.ts';
import { STRATEGIES } from './smart.strategies.ts';

/**
 * Smart plans on the real ledger and trading engine, on an injected clock: a plan run live equals
 * the engine's backtest over the same prices trade for trade; its income is exactly its trades'
 * results less their fees; the drawdown stop ends it; a stop returns principal ± result; the demo
 * book is refused; 50 buys race for room for 10.
 */
let t: TestDatabase;
let ctx: TestContext;
const clock = { now: Date.parse('2026-11-16T10:00:00Z') };
const now = () => clock.now;
let smart: SmartService;
let parts: Awaited<ReturnType<typeof testSmart>>;
/** The path BTCUSDT follows when a test draws one (null: the simulator's prices). */
let path: ((t: number) => number) | null = null;

const USDT = (units: number) => BigInt(units) * 1_000_000n;
const wallet = async (userId: number) =>
  (await ctx.ledger.balances('live', userId)).find((b) => b.asset === 'USDT')?.available ?? 0n;
const minor = (text: string) => {
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole ?? '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return text.startsWith('-') ? -value : value;
};

async function customers(n: number, live: bigint, prefix: string): Promise<number[]> {
  const rows = await t.db.query<{ id: string }>(
    `INSERT INTO users (user_name, password_hash)
     SELECT $1 || g, '$argon2id$test' FROM generate_series(1, ${n}) g RETURNING id`,
    [prefix],
  );
  const ids = rows.map((r) => Number(r.id));
  for (const id of ids) {
    await ctx.ledger.openCustomerBooks(id);
    await deposit(ctx.ledger, id, live);
  }
  return ids;
}

async function join(
  s: SmartService,
  userId: number,
  productId: number,
  amount: string,
  days: number,
  requestId: string,
) {
  const quote = await s.quote('live', userId, { productId, amount, timeframeDays: days });
  return s.buy('live', userId, 'en', { quoteId: quote.quoteId, requestId });
}

/** Moves the clock on by `minutes`, running the live runner every `every` minutes as the job does. */
async function run(s: SmartService, minutes: number, every = 60) {
  for (let done = 0; done < minutes; done += every) {
    clock.now += Math.min(every, minutes - done) * 60_000;
    await s.runLive();
    await s.postDailyIncome();
  }
}

/** Income posted equals the sum of the listed trades' results less their fees, exactly. */
function expectIncomeIsTrades(plan: SmartPlanDetail) {
  const trades = plan.trades.reduce((a, tr) => a + minor(tr.result ?? '0') - minor(tr.fee), 0n);
  const posted = plan.incomes.reduce((a, i) => a + minor(i.amount), 0n);
  expect(posted).toBe(trades);
  expect(minor(plan.incomeToDate)).toBe(trades);
}

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now });
  parts = await testSmart(ctx, { now, source: scriptedSource('BTCUSDT', () => path) });
  smart = parts.smart;
}, 120_000);
afterAll(() => t.close());
afterEach(async () => {
  await expectLedgerSound({
    ...ctx,
    subLedgers: [() => reconcileSubLedger(smart.subLedger(), ctx.ledger, ctx.audit)],
  });
});

describe(`smart plans on ${TEST_DB}`, () => {
  it('refuses what the spec refuses: unknown product 10010, not enabled 10015, timeframe 10012, amount 10016, the demo book 10043', async () => {
    const [ada] = await customers(1, USDT(50_000), 'smart-codes-');
    const id = ada as number;
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Codes' }));
    const off = await smart.createProduct('staff:1', smartProductBody({ name: 'Off', enabled: false }));
    const body = { productId: p.id, amount: '2000', timeframeDays: 3 };
    expect((await refusal(smart.quote('live', id, { ...body, productId: 999_999 }))).code).toBe(
      Code.SMART_PRODUCT_INCORRECT,
    );
    expect((await refusal(smart.quote('live', id, { ...body, productId: off.id }))).code).toBe(
      Code.NOT_AVAILABLE_FOR_TRADING,
    );
    expect((await refusal(smart.quote('live', id, { ...body, timeframeDays: 7 }))).code).toBe(
      Code.NO_MATCHING_DAYS,
    );
    expect((await refusal(smart.quote('live', id, { ...body, amount: '999.99' }))).code).toBe(
      Code.INCORRECT_PURCHASE_AMOUNT,
    );
    expect((await refusal(smart.quote('live', id, { ...body, amount: '100000.01' }))).code).toBe(
      Code.INCORRECT_PURCHASE_AMOUNT,
    );
    expect((await refusal(smart.quote('live', id, { ...body, amount: '60000' }))).code).toBe(
      Code.INSUFFICIENT_BALANCE,
    );
    expect((await refusal(smart.quote('demo', id, body))).code).toBe(Code.LIVE_BOOK_ONLY);
    const quote = await smart.quote('live', id, body);
    expect(
      (await refusal(smart.buy('demo', id, 'en', { quoteId: quote.quoteId, requestId: 'demo-buy-1' }))).code,
    ).toBe(Code.NOT_FOUND);
    expect(await smart.list('demo', id, undefined)).toEqual([]);
  });

  it('a plan run live trades exactly as the backtest over the same prices, and its income is its trades less their fees', async () => {
    clock.now = Date.parse('2026-11-16T10:00:30Z');
    const [ada] = await customers(1, USDT(20_000), 'smart-replay-');
    const id = ada as number;
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Replay', feeShare: '0.2' }));
    const before = await wallet(id);
    const plan = await join(smart, id, p.id, '10000', 3, 'replay-plan-1');
    expect(plan.state).toBe('in_progress');
    expect(await wallet(id)).toBe(before - USDT(10_000));
    // The first two hours minute by minute, as the job runs; then an hour at a time (it catches up).
    await run(smart, 120, 1);
    await run(smart, 3 * 24 * 60, 60);
    const done = await smart.plan('live', id, plan.id);
    expect(done.state === 'profit_shared' || done.state === 'expired').toBe(true);
    expect(done.endReason).toBe('expired');
    expect(done.openTrades).toBe(0);
    expect(done.trades.length).toBeGreaterThan(0);
    // The replay: the engine over the same one-minute bars, from the plan's start to its end.
    const instrument = parts.market.instrument('BTCUSDT');
    if (!instrument) throw new Error('no BTCUSDT');
    const terms = parts.trading.termsOf(instrument);
    const start = Date.parse(done.startTime) / 1000;
    const bars = barsOf(parts.market.source, instrument, start, Date.parse(done.endTime) / 1000);
    const { engine } = runEngine(
      {
        strategy: STRATEGIES.ma_trend,
        market: { ...terms, decimals: instrument.decimals },
        amount: USDT(10_000),
      },
      bars,
    );
    const positions = await parts.trading.planPositions([plan.id]);
    expect(
      positions.map((row) => ({
        t: row.liveTick,
        direction: row.direction,
        open: row.openTicks,
        centilots: row.centilots,
        sl: row.stopLossTicks,
        tp: row.takeProfitTicks,
        fee: row.feeMinor,
        closeT: row.closeTick,
        close: row.closeTicks,
        reason: row.closeReason,
        profit: row.profitMinor,
      })),
    ).toEqual(
      engine.trades.map((tr) => ({
        t: tr.t,
        direction: tr.direction,
        open: tr.openTicks,
        centilots: tr.centilots,
        sl: tr.stopLossTicks,
        tp: tr.takeProfitTicks,
        fee: tr.feeMinor,
        closeT: tr.closeT,
        close: tr.closeTicks,
        reason: tr.reason,
        profit: tr.profit,
      })),
    );
    expectIncomeIsTrades(done);
    // Principal ± result came back, the fee share taken only from a positive result.
    const result = positions.reduce((a, row) => a + netOfPosition(row), 0n);
    const fee = result > 0n ? (result * 200_000n) / 1_000_000n : 0n;
    expect(minor(done.fee as string)).toBe(fee);
    expect(minor(done.returned as string)).toBe(USDT(10_000) + result - fee);
    expect(await wallet(id)).toBe(before + result - fee);
    expect(done.profitShareDays).toBe(done.incomes.filter((i) => minor(i.amount) > 0n).length);
  }, 300_000);

  it('the drawdown stop closes the plan at its limit', async () => {
    clock.now = Date.parse('2026-11-19T08:00:30Z');
    const [bo] = await customers(1, USDT(20_000), 'smart-drawdown-');
    const id = bo as number;
    // BTCUSDT around 100,000 with hourly swings, until 2026-11-20 12:00, when it falls 30 % within one minute.
    const crashAt = Date.parse('2026-11-20T12:00:00Z') / 1000;
    path = (x) => {
      const base = 100_000 * (1 + Math.sin(x / 5400) * 0.02);
      return x >= crashAt ? base * 0.7 : base;
    };
    const s = smart;
    const p = await s.createProduct('staff:1', smartProductBody({ name: 'Crash' }));
    const before = await wallet(id);
    const plan = await join(s, id, p.id, '10000', 30, 'drawdown-plan-1');
    await run(s, 2 * 24 * 60, 60);
    const done = await s.plan('live', id, plan.id);
    expect(done.state).toBe('stopped');
    expect(done.endReason).toBe('drawdown');
    expect(done.openTrades).toBe(0);
    const last = done.trades.at(-1);
    expect(last?.closedAt).toBe('2026-11-20T12:00:00.000Z');
    // Equity at the stop is at or below the highest equity × (1 − 15 %); the minute before, above it.
    const highs: bigint[] = [];
    let equity = USDT(10_000);
    let high = equity;
    for (const tr of done.trades) {
      if (tr.closedAt === null) continue;
      equity += minor(tr.result ?? '0') - minor(tr.fee);
      if (equity > high) high = equity;
      highs.push(high);
    }
    expect(equity * 100n).toBeLessThanOrEqual(high * 85n);
    expectIncomeIsTrades(done);
    expect(await wallet(id)).toBe(before - USDT(10_000) + minor(done.returned as string));
    expect(minor(done.returned as string)).toBe(USDT(10_000) + minor(done.incomeToDate));
    // It trades no more.
    await run(s, 120, 60);
    expect((await s.plan('live', id, plan.id)).trades).toHaveLength(done.trades.length);
    path = null;
  }, 300_000);

  it('a stop closes what is open at market and returns principal ± result', async () => {
    clock.now = Date.parse('2026-11-17T09:00:30Z');
    const [cy] = await customers(1, USDT(20_000), 'smart-stop-');
    const id = cy as number;
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Stop', feeShare: '0.1' }));
    const before = await wallet(id);
    const plan = await join(smart, id, p.id, '5000', 30, 'stop-plan-1');
    await run(smart, 72 * 60, 60);
    const running = await smart.plan('live', id, plan.id);
    expect(running.state).toBe('in_progress');
    expect(running.trades.length).toBeGreaterThan(0);
    // The stop races the live runner (another minute has passed): one steps the plan at a time.
    clock.now += 60_000;
    const [, stopped] = await Promise.all([smart.runLive(), smart.stop('live', id, plan.id)]);
    expect(stopped.state).toBe('stopped');
    expect(stopped.endReason).toBe('stopped');
    expect(stopped.openTrades).toBe(0);
    expectIncomeIsTrades(stopped);
    const result = minor(stopped.incomeToDate);
    const fee = result > 0n ? (result * 100_000n) / 1_000_000n : 0n;
    expect(minor(stopped.fee as string)).toBe(fee);
    expect(await wallet(id)).toBe(before + result - fee);
    // Another customer's plan, and a second stop, are nothing to this customer.
    const [other] = await customers(1, USDT(1), 'smart-other-');
    expect((await refusal(smart.plan('live', other as number, plan.id))).code).toBe(Code.NOT_FOUND);
    expect((await refusal(smart.stop('live', id, plan.id))).code).toBe(Code.NOT_FOUND);
  }, 300_000);

  it('a plan starts and ends when its quote said, though a minute turns between the quote and the commit; its first trade is after the commit', async () => {
    clock.now = Date.parse('2026-11-18T23:59:50Z');
    const [dee] = await customers(1, USDT(20_000), 'smart-minute-');
    const id = dee as number;
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Minute' }));
    const quote = await smart.quote('live', id, { productId: p.id, amount: '2000', timeframeDays: 3 });
    expect(quote.startTime).toBe('2026-11-19T00:00:00.000Z');
    expect(quote.endTime).toBe('2026-11-22T00:00:00.000Z');
    expect(quote.firstIncomeTime).toBe('2026-11-20T00:00:00.000Z');
    // A crypto market never closes: every minute of the window can trade.
    expect(quote.marketOpenMinutes).toBe(3 * 24 * 60);
    // Committed 55 s later, within the quote's minute, in the next minute (and day).
    clock.now += 55_000;
    const plan = await smart.buy('live', id, 'en', { quoteId: quote.quoteId, requestId: 'minute-plan-1' });
    expect(plan.startTime).toBe(quote.startTime);
    expect(plan.endTime).toBe(quote.endTime);
    await run(smart, 24 * 60, 60);
    const running = await smart.plan('live', id, plan.id);
    for (const trade of running.trades)
      expect(Date.parse(trade.openedAt)).toBeGreaterThan(Date.parse('2026-11-19T00:00:45Z'));
  }, 300_000);

  it('a product page: the past year’s backtest, computed once a day, beside the realised record of its plans', async () => {
    const replay = (await smart.products()).find((p) => p.name === 'Replay');
    if (!replay) throw new Error('no product');
    expect(replay.realised).not.toBeNull();
    const detail = await smart.product(replay.id);
    expect(detail.backtest?.bars).toBe(525_600);
    expect(detail.backtest?.equity).toHaveLength(365);
    expect(detail.backtest?.to).toBe(`${new Date(clock.now).toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect(detail.live).toMatchObject({ plans: 1, running: 0 });
    expect(detail.live.items[0]?.realised.days).toBe(detail.live.realised?.days);
    const again = await smart.product(replay.id);
    expect(again.backtest).toEqual(detail.backtest);
    const [kept] = await t.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM smart_backtests WHERE product_id = $1 AND day = $2',
      [replay.id, new Date(clock.now).toISOString().slice(0, 10)],
    );
    expect(Number(kept?.n)).toBe(1);
  }, 120_000);

  it('a one-day plan’s yield is over its one day (daily × days = period, plan and product alike); a day of profit share is a day of profit; trades say what their lots are; the notice has exact amounts; every time is the service clock’s', async () => {
    // A Saturday at 10:00: the one-day plan touches two calendar days, so two income days.
    clock.now = Date.parse('2026-11-21T10:00:30Z');
    const [eve] = await customers(1, USDT(20_000), 'smart-oneday-');
    const id = eve as number;
    // BTCUSDT swinging 2 % every three hours: the averages cross, the rule trades.
    path = (x) => 100_000 * (1 + Math.sin(x / 1800) * 0.02);
    const atOf = async (sql: string, param: number) =>
      (await t.db.query<{ at: Date | string }>(sql, [param])).map((r) => new Date(r.at).toISOString())[0];
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'One day' }));
    const created = new Date(clock.now).toISOString();
    const plan = await join(smart, id, p.id, '10000', 1, 'oneday-plan-1');
    await run(smart, 25 * 60, 60);
    const done = await smart.plan('live', id, plan.id);
    path = null;
    expect(done.state === 'profit_shared' || done.state === 'expired').toBe(true);
    expect(done.incomes.map((i) => i.day)).toEqual(['2026-11-21', '2026-11-22']);
    expect(done.trades.length).toBeGreaterThan(0);
    const result = minor(done.incomeToDate);
    expect(result).not.toBe(0n);
    // Its yield: over one day, so the daily yield is its whole return.
    const record = (await smart.product(p.id)).live;
    const [item] = record.items;
    expect(item).toMatchObject({ planId: plan.id, trades: done.trades.length });
    expect(item?.realised.days).toBe('1');
    expect(item?.realised.dailyYield).toBe(item?.realised.periodReturn);
    expect(done.dailyYield).toBe(item?.realised.dailyYield);
    expect(record.realised).toMatchObject({ days: '1', dailyYield: item?.realised.periodReturn });
    // Days of profit share: the days that made a profit, none for a day of loss or of nothing.
    expect(done.profitShareDays).toBe(done.incomes.filter((i) => minor(i.amount) > 0n).length);
    // Each trade's lots in BTC: size × the lot size of the trading terms.
    const instrument = parts.market.instrument('BTCUSDT');
    if (!instrument) throw new Error('no BTCUSDT');
    const lotSize = parts.trading.termsOf(instrument).lotSize;
    for (const trade of done.trades) {
      expect(trade.unit).toBe('BTC');
      expect(minor(trade.units)).toBe(minor(trade.size) * lotSize);
    }
    // The end's notice: the exact result, worded by the display rule (not rounded to cents first).
    expect(done.incomeToDate.split('.')[1]?.length ?? 0).toBeGreaterThan(2);
    const told = (await ctx.notices.list(id, 'en')).map((n) => n.noticeContent);
    expect(told.some((text) => text.includes(formatDisplay('en', done.incomeToDate, 'USDT')))).toBe(true);
    // One clock: the product, the plan and the backtest are written at the service's time, not the database's.
    expect(await atOf('SELECT created_at AS at FROM smart_products WHERE id = $1', p.id)).toBe(created);
    expect(await atOf('SELECT updated_at AS at FROM smart_products WHERE id = $1', p.id)).toBe(created);
    expect(await atOf('SELECT created_at AS at FROM smart_plans WHERE id = $1', plan.id)).toBe(created);
    expect(
      await atOf('SELECT created_at AS at FROM smart_backtests WHERE product_id = $1 ORDER BY day', p.id),
    ).toBe(created);
    clock.now += 60_000;
    await smart.updateProduct('staff:1', {
      ...smartProductBody({ name: 'One day', enabled: false }),
      id: p.id,
    });
    expect(await atOf('SELECT updated_at AS at FROM smart_products WHERE id = $1', p.id)).toBe(
      new Date(clock.now).toISOString(),
    );
  }, 300_000);

  it('a plan that could make no trade in its window is refused with the reason; one that made none is listed so, and no yield rests on it', async () => {
    // Saturday: EURUSD's market is closed until Sunday 22:00 UTC.
    clock.now = Date.parse('2026-11-21T10:00:30Z');
    const [fay] = await customers(1, USDT(20_000), 'smart-closed-');
    const id = fay as number;
    const euro = await smart.createProduct(
      'staff:1',
      smartProductBody({ name: 'Euro', strategy: 'mean_reversion', instruments: ['EURUSD'] }),
    );
    const oneDay = await refusal(
      smart.quote('live', id, { productId: euro.id, amount: '2000', timeframeDays: 1 }),
    );
    expect(oneDay).toMatchObject({
      code: Code.NOT_AVAILABLE_FOR_TRADING,
      data: {
        reason: 'market_closed',
        instrument: 'EURUSD',
        from: '2026-11-21T10:01:00.000Z',
        to: '2026-11-22T10:01:00.000Z',
        opensAt: '2026-11-22T22:00:00.000Z',
      },
    });
    // Three days reach Monday's market: quoted, with the minutes it is open in the window stated
    // (Sunday 22:00 to Tuesday 10:01: 36 h 1 min of the 72 h), for the confirm step to warn of.
    const threeDays = await smart.quote('live', id, { productId: euro.id, amount: '2000', timeframeDays: 3 });
    expect(threeDays.timeframeDays).toBe(3);
    expect(threeDays.marketOpenMinutes).toBe(36 * 60 + 1);
    // A flat price: the averages never cross, the plan makes no trade.
    path = () => 100_000;
    const flat = await smart.createProduct('staff:1', smartProductBody({ name: 'Flat' }));
    const plan = await join(smart, id, flat.id, '2000', 1, 'flat-plan-1');
    await run(smart, 25 * 60, 60);
    path = null;
    const done = await smart.plan('live', id, plan.id);
    expect(done.state).toBe('expired');
    expect(done.trades).toEqual([]);
    expect(done.profitShareDays).toBe(0);
    const record = (await smart.product(flat.id)).live;
    expect(record.items).toMatchObject([{ planId: plan.id, trades: 0 }]);
    expect(record.realised).toBeNull();
  }, 300_000);

  it('50 concurrent buys against a capacity of 10 plans: exactly 10', async () => {
    clock.now = Date.parse('2026-11-25T09:00:30Z');
    const ids = await customers(50, USDT(2_000), 'smart-race-');
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Ten', capacity: '10000' }));
    const quotes = await Promise.all(
      ids.map((id) => smart.quote('live', id, { productId: p.id, amount: '1000', timeframeDays: 1 })),
    );
    const results = await Promise.allSettled(
      ids.map((id, i) =>
        smart.buy('live', id, 'en', { quoteId: quotes[i]?.quoteId as string, requestId: `race-${id}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const r of results)
      if (r.status === 'rejected') expect((await refusal(Promise.reject(r.reason))).code).toBe(Code.SOLD_OUT);
    const product = (await smart.products()).find((x) => x.id === p.id);
    expect(minor(product?.taken ?? '0')).toBe(USDT(10_000));
    expect(product?.soldOut).toBe(true);
    // Let them end, so the next tests start from plans that are all settled.
    await run(smart, 24 * 60 + 60, 24 * 60 + 60);
  }, 300_000);

  it('a quote commits once, whatever the request id: 10 buys of it at once under 10 ids make one plan', async () => {
    clock.now = Date.parse('2026-11-27T09:00:30Z');
    // 1,000 USDT a plan against 50,000 and a product with room for 1,000 plans: neither the balance
    // nor the room is what stops a second plan.
    const [id] = (await customers(1, USDT(50_000), 'smart-once-')) as [number];
    const p = await smart.createProduct('staff:1', smartProductBody({ name: 'Once', capacity: '1000000' }));
    const quote = await smart.quote('live', id, { productId: p.id, amount: '1000', timeframeDays: 1 });
    const before = await wallet(id);
    const requestIds = Array.from({ length: 10 }, (_, i) => `once-${id}-${i}`);
    const results = await Promise.allSettled(
      requestIds.map((requestId) => smart.buy('live', id, 'en', { quoteId: quote.quoteId, requestId })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const index = results.findIndex((r) => r.status === 'fulfilled');
    const won = results[index];
    if (won?.status !== 'fulfilled') throw new Error('no plan');
    const refused = await Promise.all(
      results.filter((r) => r.status === 'rejected').map((r) => refusal(Promise.reject(r.reason))),
    );
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r).toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
    const plans = await t.db.query<{ id: string }>(
      'SELECT id FROM smart_plans WHERE user_id = $1 AND product_id = $2',
      [id, p.id],
    );
    expect(plans.map((r) => Number(r.id))).toEqual([won.value.id]);
    const entries = await t.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_entries WHERE kind = 'smart_subscribe' AND reference = $1",
      [`smart-product:${p.id}`],
    );
    expect(entries[0]?.n).toBe('1');
    expect(await wallet(id)).toBe(before - USDT(1_000));
    expect(minor((await smart.products()).find((x) => x.id === p.id)?.taken ?? '0')).toBe(USDT(1_000));
    // The winning request again answers its plan; a losing one is still refused; nothing more moved.
    const again = await smart.buy('live', id, 'en', {
      quoteId: quote.quoteId,
      requestId: requestIds[index] as string,
    });
    expect(again.id).toBe(won.value.id);
    const loser = requestIds[(index + 1) % 10] as string;
    expect(
      await refusal(smart.buy('live', id, 'en', { quoteId: quote.quoteId, requestId: loser })),
    ).toMatchObject({ code: Code.PRICE_CHANGED, data: { reason: 'used' } });
    expect(await wallet(id)).toBe(before - USDT(1_000));
    // Let it end, so the next tests start from plans that are all settled.
    await run(smart, 24 * 60 + 60, 24 * 60 + 60);
  }, 300_000);
});
