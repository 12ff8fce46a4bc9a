import { Code } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { productBody, testEarn } from '../../test/earn.ts';
import { renderNotice } from '../notices/notices.service.ts';
import { addDays, utcDay } from '../products/figures.ts';

/**
 * Issue 41 on the real ledger and an injected clock a few months from the system's: a flexible
 * fund whose reserve cannot pay a day pauses (its customers told once, its investments showing
 * what is owed, the product off sale) and catches up with a notice once funded; income days make
 * one digest per customer; what can still be invested is stated before the quote; the summary keeps
 * fund and VIP apart; every earn time is the service clock's.
 */
let t: TestDatabase;
let ctx: TestContext;
let e: ReturnType<typeof testEarn>;
const clock = { now: Date.parse('2027-03-01T00:05:00Z') };
const DAY = 86_400_000;

/** The kinds of a customer's notices, oldest first. */
const noticeKinds = async (userId: number) =>
  (
    await t.db.query<{ kind: string }>('SELECT kind FROM notices WHERE user_id = $1 ORDER BY id', [userId])
  ).map((r) => r.kind);
const earnKinds = async (userId: number) => (await noticeKinds(userId)).filter((k) => k.startsWith('earn_'));

async function buy(userId: number, productId: number, amount: string, type: 'fund' | 'vip' = 'fund') {
  const q = await e.earn.quote('demo', userId, { productId, amount });
  return e.earn.apply('demo', userId, { quoteId: q.quoteId, requestId: `buy-${q.quoteId.slice(-12)}` }, type);
}

/** An ApiError of `code` whose data has these values. */
const refusal = (code: number, data: Record<string, unknown>) => (error: unknown) =>
  error instanceof ApiError &&
  error.code === code &&
  Object.entries(data).every(
    ([key, value]) => (error.data as Record<string, unknown> | null)?.[key] === value,
  );

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now: () => clock.now });
  e = testEarn(ctx, { now: () => clock.now });
}, 120_000);
afterEach(() => expectLedgerSound(ctx));
afterAll(() => t.close());

describe(`earn reserve, limits, notices and clock on ${TEST_DB}`, () => {
  it('a flexible fund whose reserve cannot pay a day: paused with what is owed, off sale, told once; paid with a notice once funded', async () => {
    const { earn, runner } = e;
    clock.now = Date.parse('2027-03-01T00:05:00Z');
    const p = (
      await earn.createProduct(
        'staff:1',
        productBody({ name: 'Flexible 8', termDays: null, annualRate: '0.08', penaltyRate: '0' }),
      )
    ).product;
    // The first day of the three investments below is 5.479450 USDT: 6 pays it and no more.
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '6', reason: 'test' },
      'reserve-6',
    );
    const ada = await ctx.customer();
    const bob = await ctx.customer();
    const [a1, a2] = [await buy(ada.id, p.id, '10000'), await buy(ada.id, p.id, '10000')];
    await buy(bob.id, p.id, '5000');
    const day1 = addDays(utcDay(clock.now), 1);

    // Day 1 is paid: one digest per customer however many investments paid it.
    clock.now += 2 * DAY;
    expect(await earn.runDaily(runner)).toEqual([]);
    expect(await earnKinds(ada.id)).toEqual(['earn_income']);
    expect(await earnKinds(bob.id)).toEqual(['earn_income']);
    const digest = (await ctx.notices.list(ada.id, 'en'))[0]?.noticeContent ?? '';
    expect(digest).toContain(day1);
    expect(digest).toContain('4.38356'); // 2 × 2.191780
    expect(digest).toContain('(2)');

    // Day 2 cannot be paid: the job says so, every customer owed the day is told once.
    clock.now += DAY;
    const day2 = addDays(day1, 1);
    expect(await earn.runDaily(runner)).toEqual([{ product: `earn.${p.id}`, book: 'demo', day: day2 }]);
    expect(await earn.runDaily(runner)).toHaveLength(1);
    expect(await earnKinds(ada.id)).toEqual(['earn_income', 'earn_paused']);
    expect(await earnKinds(bob.id)).toEqual(['earn_income', 'earn_paused']);
    const mine = await earn.investments('demo', ada.id, {});
    expect(mine.find((i) => i.id === a1.id)?.paused).toEqual({
      reason: 'reserve_short',
      since: day2,
      owed: '2.191781',
    });
    expect((await earn.investment('demo', ada.id, a2.id)).paused?.owed).toBe('2.191781');
    // Off sale to new buyers, and staff see since when.
    const product = await earn.product('demo', p.id);
    expect(product).toMatchObject({ soldOut: 'reserve_short', investable: '0.000000' });
    expect((await earn.products('demo', 'fund')).find((x) => x.id === p.id)?.soldOut).toBe('reserve_short');
    const carl = await ctx.customer();
    await expect(earn.quote('demo', carl.id, { productId: p.id, amount: '100' })).rejects.toSatisfy(
      refusal(Code.SOLD_OUT, { reason: 'reserve_short' }),
    );
    const staffView = (await earn.adminList()).find((x) => x.product.id === p.id);
    expect(staffView?.books.find((b) => b.book === 'demo')?.shortSince).toBe(day2);

    // A day later still short: no second notice; what is owed grows by the day.
    clock.now += DAY;
    expect(await earn.runDaily(runner)).toHaveLength(1);
    expect(await earnKinds(ada.id)).toEqual(['earn_income', 'earn_paused']);
    expect((await earn.investment('demo', ada.id, a1.id)).paused?.owed).toBe('4.383562');

    // Funded: the days owed are paid, each customer told once, nothing paused, on sale again.
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '100', reason: 'top up' },
      'reserve-100',
    );
    expect(await earn.runDaily(runner)).toEqual([]);
    expect(await earnKinds(ada.id)).toEqual(['earn_income', 'earn_paused', 'earn_resumed']);
    expect(await earnKinds(bob.id)).toEqual(['earn_income', 'earn_paused', 'earn_resumed']);
    const resumed = (await ctx.notices.list(ada.id, 'en'))[0]?.noticeContent ?? '';
    expect(resumed).toContain(day2);
    expect(resumed).toContain('8.767124'); // 2 investments × (2.191781 + 2.191781)
    const paid = await earn.investment('demo', ada.id, a1.id);
    expect(paid.paused).toBeNull();
    expect(paid.incomes.map((i) => i.day)).toEqual([addDays(day2, 1), day2, day1]);
    expect((await earn.product('demo', p.id)).soldOut).toBeNull();
    // The next day is an ordinary digest again.
    clock.now += DAY;
    expect(await earn.runDaily(runner)).toEqual([]);
    expect(await earnKinds(ada.id)).toEqual(['earn_income', 'earn_paused', 'earn_resumed', 'earn_income']);
  });

  it('states what can still be invested from the free reserve and capacity, and the quote refuses above it with that figure', async () => {
    const { earn } = e;
    const p = (await earn.createProduct('staff:1', productBody({ name: 'Fixed 30 at 12' }))).product;
    await earn.fundReserve(
      'staff:1',
      { productId: p.id, book: 'demo', amount: '50', reason: 'test' },
      'reserve-50',
    );
    // 30 days at 12 %: the interest of A is floor(A × 0.12 × 30 / 365) ≤ 50 USDT.
    const shown = await earn.product('demo', p.id);
    expect(shown.investable).toBe('5069.444545');
    const dan = await ctx.customer();
    await expect(earn.quote('demo', dan.id, { productId: p.id, amount: '6000' })).rejects.toSatisfy(
      refusal(Code.WRONG_INVESTMENT_AMOUNT, { maximum: '5069.444545' }),
    );
    const bought = await buy(dan.id, p.id, shown.investable);
    expect(bought.totalInterest).toBe('50.000000');
    expect(await earn.product('demo', p.id)).toMatchObject({ soldOut: 'reserve', investable: '0.000000' });
    // Capacity bounds it too.
    const small = (
      await earn.createProduct('staff:1', productBody({ name: 'Small', capacity: '1000', termDays: null }))
    ).product;
    await buy(dan.id, small.id, '700');
    expect((await earn.product('demo', small.id)).investable).toBe('300.000000');
    await expect(earn.quote('demo', dan.id, { productId: small.id, amount: '301' })).rejects.toSatisfy(
      refusal(Code.WRONG_INVESTMENT_AMOUNT, { maximum: '300.000000' }),
    );
  });

  it("keeps fund and VIP investments to their own summary, and dates every investment by the service's clock", async () => {
    const { earn, runner } = e;
    clock.now = Date.parse('2027-06-10T08:00:00Z');
    const fund = (
      await earn.createProduct(
        'staff:1',
        productBody({ name: 'Fund flex', termDays: null, penaltyRate: '0' }),
      )
    ).product;
    const vip = (await earn.createProduct('staff:1', productBody({ name: 'VIP 30', type: 'vip' }))).product;
    const basket = (
      await earn.createProduct(
        'staff:1',
        productBody({ name: 'Basket', income: 'dynamic', annualRate: null, basket: ['BTC'] }),
      )
    ).product;
    for (const x of [fund, vip])
      await earn.fundReserve(
        'staff:1',
        { productId: x.id, book: 'demo', amount: '1000', reason: 't' },
        `summary-${x.id}`,
      );
    const eve = await ctx.customer();
    const f = await buy(eve.id, fund.id, '1000');
    await buy(eve.id, vip.id, '3000', 'vip');
    expect(f.entrustTime).toBe('2027-06-10T08:00:00.000Z');
    expect((await earn.summary('demo', eve.id, 'fund')).map((s) => s.invested)).toEqual(['1000.000000']);
    expect((await earn.summary('demo', eve.id, 'vip')).map((s) => s.invested)).toEqual(['3000.000000']);
    expect((await earn.summary('demo', eve.id)).map((s) => s.invested)).toEqual(['4000.000000']);

    clock.now = Date.parse('2027-06-12T09:30:00Z');
    const q = await earn.redeemQuote('demo', eve.id, f.id);
    const redeemed = await earn.redeem('demo', eve.id, { quoteId: q.quoteId }, 'fund');
    expect(redeemed.redeemedAt).toBe('2027-06-12T09:30:00.000Z');
    // A dynamic product publishes its days from the day it was made on the clock.
    await earn.runDaily(runner);
    expect((await earn.price(basket.id)).days[0]?.day).toBe('2027-06-10');
  });

  it("one income notice per customer and book a day, naming each asset's income exactly, however the customers are windowed", async () => {
    const { earn, runner } = e;
    clock.now = Date.parse('2027-06-20T00:05:00Z');
    const flexible = { termDays: null, penaltyRate: '0' } as const;
    const usdt = (
      await earn.createProduct(
        'staff:1',
        productBody({ name: 'Daily USDT', annualRate: '0.08', ...flexible }),
      )
    ).product;
    const btc = (
      await earn.createProduct(
        'staff:1',
        productBody({
          name: 'Daily BTC',
          asset: 'BTC',
          annualRate: '0.0365',
          minAmount: '0.1',
          maxAmount: '10',
          capacity: '100',
          ...flexible,
        }),
      )
    ).product;
    for (const [x, amount] of [
      [usdt, '100'],
      [btc, '1'],
    ] as const)
      await earn.fundReserve(
        'staff:1',
        { productId: x.id, book: 'demo', amount, reason: 't' },
        `digest-${x.id}`,
      );
    const fay = await ctx.customer();
    await deposit(ctx.ledger, fay.id, 200_000_000n, { book: 'demo', asset: 'BTC' });
    await buy(fay.id, usdt.id, '10000');
    await buy(fay.id, usdt.id, '5000');
    await buy(fay.id, btc.id, '1');
    const gus = await ctx.customer();
    await buy(gus.id, usdt.id, '5000');
    const day = addDays(utcDay(clock.now), 1);

    clock.now += 2 * DAY;
    // Both products paid the day (the earlier tests' products may be short: not this test's subject).
    // Customers are told a window of one investment at a time: each window still takes every
    // investment of its last customer, so fay's three make one notice and gus has his own.
    const short = await earn.runDaily(runner, 1);
    expect(short.filter((u) => [usdt.id, btc.id].some((id) => u.product === `earn.${id}`))).toEqual([]);
    // One notice for the day: 2.191780 + 1.095890 USDT and 1 × 0.0365 / 365 BTC, the exact decimals stored.
    const notices = await t.db.query<{ params: Record<string, string> }>(
      "SELECT params FROM notices WHERE user_id = $1 AND kind = 'earn_income'",
      [fay.id],
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.params.amounts).toBe('3.287670 USDT; 0.00010000 BTC');
    const [en] = await ctx.notices.list(fay.id, 'en');
    expect(en?.noticeContent).toContain(day);
    expect(en?.noticeContent).toContain('3.28767 USDT and 0.0001 BTC');
    expect(en?.noticeContent).toContain('(3)');
    const his = await t.db.query<{ params: Record<string, string> }>(
      "SELECT params FROM notices WHERE user_id = $1 AND kind = 'earn_income'",
      [gus.id],
    );
    expect(his.map((n) => [n.params.amounts, n.params.count])).toEqual([['1.095890 USDT', '1']]);
    // Read in another language, the amounts and the list are that language's.
    expect((await ctx.notices.list(fay.id, 'de'))[0]?.noticeContent).toContain('3,28767 USDT und 0,0001 BTC');
    // A digest stored before it named `amounts` (one `amount` and `asset`) still reads whole.
    const before = { day, book: 'demo', count: '2', amount: '3.287670', asset: 'USDT' };
    expect(renderNotice('earn_income', 'en', before)).toContain(': 3.28767 USDT from your investments (2)');
  });
});
