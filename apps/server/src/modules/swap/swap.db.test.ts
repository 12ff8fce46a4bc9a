import { type Book, Code, type SwapQuoteBody } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import type { Quote } from '../market/feed.ts';
import { MarketService } from '../market/market.service.ts';
import { type PriceSource, simulatedSource } from '../market/source.ts';
import { refusal } from '../positions/positions.testing.ts';
import { SwapService } from './swap.service.ts';

/**
 * Swaps against the real ledger, on an injected clock and a price source of fixed prices the test
 * can close (a closed market, or a stale price, is what the source answers: not open, no quote):
 * the quote's figures are the posted entry to the minor unit, expiry, 50 swaps racing for one
 * balance, request ids, books, limits, an unavailable price and a pair switched off.
 */
let t: TestDatabase;
let ctx: TestContext;
let swap: SwapService;
let clock = Date.UTC(2026, 10, 18, 15, 0, 0);

/** USDT per unit, as the exchange quotes them; null: the market is closed or its price stale. */
const prices: Record<string, { bid: number; ask: number } | null> = {};
const setPrices = () => {
  prices.BTCUSDT = { bid: 65_012.5, ask: 65_013.5 };
  prices.ETHUSDT = { bid: 3_000, ask: 3_001 };
  prices.USDCUSDT = { bid: 0.9998, ask: 1.0002 };
};
const fixedSource: PriceSource = {
  ...simulatedSource,
  isOpen: (instrument) => Boolean(prices[instrument.code]),
  quote: (instrument): Quote | null => {
    const p = prices[instrument.code];
    return p ? { ...p, mid: (p.bid + p.ask) / 2 } : null;
  },
};

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db);
  const market = new MarketService(t.db, () => clock, fixedSource);
  await market.load();
  swap = new SwapService({ db: t.db, ledger: ctx.ledger, market, audit: ctx.audit, now: () => clock });
}, 120_000);
afterAll(() => t.close());
afterEach(async () => {
  setPrices();
  await expectLedgerSound(ctx);
});
setPrices();

const balance = async (book: Book, userId: number, asset: string) =>
  (await ctx.ledger.balances(book, userId)).find((b) => b.asset === asset)?.balance ?? 0n;
const codeOf = async (run: Promise<unknown>) => (await refusal(run)).code;
const usdtToBtc = (amount: string): SwapQuoteBody => ({ from: 'USDT', to: 'BTC', amount });

describe(`swap on ${TEST_DB}`, () => {
  it('posts exactly the quote’s figures as one entry, to the minor unit, and the record says so', async () => {
    const user = (await ctx.customer()).id;
    const q = await swap.quote('demo', user, usdtToBtc('1000'));
    // 1,000 USDT at the ask 65,013.50: floor(1000 / 65013.5 × 10^8) = 1,538,142 satoshis;
    // at the mid 65,013.00: 1,538,153 (spread 11); fee ceil(1,538.142) = 1,539.
    expect(q).toMatchObject({
      amount: '1000.000000',
      gross: '0.01538142',
      spread: '0.00000011',
      fee: '0.00001539',
      receive: '0.01536603',
      feeRate: '0.001',
      quoteTime: clock / 1000,
      expiresAt: clock / 1000 + 10,
    });
    const done = await swap.commit('demo', user, { quoteId: q.quoteId, requestId: 'exact-1' });
    expect(done).toMatchObject({
      from: 'USDT',
      to: 'BTC',
      amount: q.amount,
      gross: q.gross,
      spread: q.spread,
      fee: q.fee,
      receive: q.receive,
      rate: q.rate,
      price: q.price,
    });
    const [event] = await ctx.ledger.eventsOf('demo', user, { limit: 1 });
    expect(event?.kind).toBe('swap');
    expect(event?.entryId).toBe(done.entryId);
    const posted = event?.postings.map((p) => [p.account, p.asset, p.amount]);
    expect(posted).toEqual(
      expect.arrayContaining([
        ['wallet', 'USDT', -1_000_000_000n],
        ['house_pnl', 'USDT', 1_000_000_000n],
        ['house_pnl', 'BTC', -1_538_142n],
        ['wallet', 'BTC', 1_536_603n],
        ['fees', 'BTC', 1_539n],
      ]),
    );
    expect(posted).toHaveLength(5);
    expect(event?.detail?.swap).toEqual({
      id: done.id,
      from: 'USDT',
      to: 'BTC',
      amount: '1000.000000',
      receive: '0.01536603',
      fee: '0.00001539',
    });
    expect(await balance('demo', user, 'USDT')).toBe(99_000_000_000n);
    expect(await balance('demo', user, 'BTC')).toBe(1_536_603n);

    // And back: BTC → USDT at the bid 65,012.50: 1,536,603 × 650.125 = 998,984,025.375 → 998.984025 USDT;
    // fee ceil(998.984025) micro-USDT = 0.998985; receive 997.985040.
    const back = await swap.quote('demo', user, { from: 'BTC', to: 'USDT', amount: '0.01536603' });
    expect(back).toMatchObject({ gross: '998.984025', fee: '0.998985', receive: '997.985040' });
    await swap.commit('demo', user, { quoteId: back.quoteId, requestId: 'exact-2' });
    expect(await balance('demo', user, 'BTC')).toBe(0n);
    expect(await balance('demo', user, 'USDT')).toBe(99_997_985_040n);
    expect((await swap.history('demo', user, undefined)).map((s) => s.from)).toEqual(['BTC', 'USDT']);
  });

  it('refuses an expired quote with 10032 and moves nothing', async () => {
    const user = (await ctx.customer()).id;
    const q = await swap.quote('demo', user, usdtToBtc('500'));
    clock += 11_000;
    expect(await codeOf(swap.commit('demo', user, { quoteId: q.quoteId, requestId: 'late-1' }))).toBe(
      Code.PRICE_CHANGED,
    );
    expect(await balance('demo', user, 'USDT')).toBe(100_000_000_000n);
    expect(await balance('demo', user, 'BTC')).toBe(0n);
    expect(await swap.history('demo', user, undefined)).toEqual([]);
  });

  it('holds a quote for reading (issue 41 #27): firm 10 s, then only while the market has not moved against it', async () => {
    const user = (await ctx.customer()).id;
    const held = await swap.quote('demo', user, { ...usdtToBtc('1000'), hold: true });
    expect(held.expiresAt).toBe(clock / 1000 + 120);
    // A minute later BTC is cheaper: the same 1,000 USDT would buy more BTC now, so the held
    // figures still stand (the house pays no stale price) and are posted exactly.
    clock += 60_000;
    prices.BTCUSDT = { bid: 64_900, ask: 64_901 };
    const done = await swap.commit('demo', user, { quoteId: held.quoteId, requestId: 'held-ok-1' });
    expect(done).toMatchObject({
      amount: held.amount,
      receive: held.receive,
      fee: held.fee,
      price: held.price,
    });

    // BTC dearer after the firm seconds: the quote would give more than the market does now.
    setPrices();
    const moved = await swap.quote('demo', user, { ...usdtToBtc('1000'), hold: true });
    clock += 11_000;
    prices.BTCUSDT = { bid: 65_100, ask: 65_101 };
    const refused = await refusal(
      swap.commit('demo', user, { quoteId: moved.quoteId, requestId: 'held-moved' }),
    );
    expect(refused.code).toBe(Code.PRICE_CHANGED);
    expect(refused.data).toMatchObject({ reason: 'moved' });
    // Within its firm seconds a held quote is the offer as given, whatever the market did since.
    setPrices();
    const firm = await swap.quote('demo', user, { ...usdtToBtc('1000'), hold: true });
    clock += 5_000;
    prices.BTCUSDT = { bid: 65_100, ask: 65_101 };
    expect((await swap.commit('demo', user, { quoteId: firm.quoteId, requestId: 'held-firm' })).receive).toBe(
      firm.receive,
    );
    // Past its 120 s it is expired, and a quote not held is expired after 10 s as before.
    setPrices();
    const late = await swap.quote('demo', user, { ...usdtToBtc('1000'), hold: true });
    const plain = await swap.quote('demo', user, usdtToBtc('1000'));
    clock += 11_000;
    expect(
      (await refusal(swap.commit('demo', user, { quoteId: plain.quoteId, requestId: 'plain-late' }))).data,
    ).toMatchObject({ expiresAt: plain.expiresAt });
    clock += 110_000;
    const expired = await refusal(
      swap.commit('demo', user, { quoteId: late.quoteId, requestId: 'held-late' }),
    );
    expect(expired.code).toBe(Code.PRICE_CHANGED);
    expect(expired.data).not.toMatchObject({ reason: 'moved' });
    expect(await balance('demo', user, 'USDT')).toBe(98_000_000_000n);
  });

  it('50 swaps of the whole balance at once: exactly one is done, 49 get 10011', async () => {
    const user = (await ctx.customer({ live: 1_000_000_000n })).id;
    const quotes = await Promise.all(
      Array.from({ length: 50 }, () =>
        swap.quote('live', user, { from: 'USDT', to: 'USDC', amount: '1000' }),
      ),
    );
    const outcomes = await Promise.all(
      quotes.map((q, i) =>
        swap.commit('live', user, { quoteId: q.quoteId, requestId: `race-${i}` }).then(
          () => 'done' as const,
          async (error: unknown) => (await refusal(Promise.reject(error))).code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
    expect(outcomes.filter((o) => o === Code.INSUFFICIENT_BALANCE)).toHaveLength(49);
    // 1,000 USDT at the ask 1.0002: floor(1000 / 1.0002 × 10^6) = 999.800039; fee 0.999801.
    expect(await balance('live', user, 'USDT')).toBe(0n);
    expect(await balance('live', user, 'USDC')).toBe(998_800_238n);
    expect(await swap.history('live', user, undefined)).toHaveLength(1);
  });

  it('one swap per request id: a retry, with the same or a newer quote, answers the first', async () => {
    const user = (await ctx.customer()).id;
    const first = await swap.quote('demo', user, usdtToBtc('100'));
    const done = await swap.commit('demo', user, { quoteId: first.quoteId, requestId: 'once-1' });
    expect(await swap.commit('demo', user, { quoteId: first.quoteId, requestId: 'once-1' })).toEqual(done);
    clock += 1_000;
    const second = await swap.quote('demo', user, usdtToBtc('200'));
    expect(await swap.commit('demo', user, { quoteId: second.quoteId, requestId: 'once-1' })).toEqual(done);
    // Late, after the quote expired: still the swap that was done.
    clock += 60_000;
    expect(await swap.commit('demo', user, { quoteId: first.quoteId, requestId: 'once-1' })).toEqual(done);
    expect(await swap.history('demo', user, undefined)).toHaveLength(1);
    expect(await balance('demo', user, 'USDT')).toBe(99_900_000_000n);
  });

  it('keeps the books apart: a demo quote is 10028 in live, and each book has its own history', async () => {
    const user = (await ctx.customer({ live: 500_000_000n })).id;
    const other = (await ctx.customer()).id;
    const demo = await swap.quote('demo', user, usdtToBtc('100'));
    expect(await codeOf(swap.commit('live', user, { quoteId: demo.quoteId, requestId: 'book-1' }))).toBe(
      Code.NOT_FOUND,
    );
    // Another customer's quote is as if it did not exist.
    expect(await codeOf(swap.commit('demo', other, { quoteId: demo.quoteId, requestId: 'book-1' }))).toBe(
      Code.NOT_FOUND,
    );
    const live = await swap.quote('live', user, usdtToBtc('100'));
    // The same request id in each book: two swaps, one per book.
    await swap.commit('demo', user, { quoteId: demo.quoteId, requestId: 'book-1' });
    await swap.commit('live', user, { quoteId: live.quoteId, requestId: 'book-1' });
    expect(await swap.history('demo', user, undefined)).toHaveLength(1);
    expect(await swap.history('live', user, undefined)).toHaveLength(1);
    expect(await balance('live', user, 'USDT')).toBe(400_000_000n);
    expect(await balance('demo', user, 'USDT')).toBe(99_900_000_000n);
    expect(await swap.history('demo', other, undefined)).toEqual([]);
    // More than the live balance: 10011 at the quote already.
    expect(await codeOf(swap.quote('live', user, usdtToBtc('401')))).toBe(Code.INSUFFICIENT_BALANCE);
  });

  it('answers 10038 below and 10039 above the pair’s limits, in the from asset', async () => {
    const user = (await ctx.customer()).id;
    expect(await refusal(swap.quote('demo', user, usdtToBtc('9.999999')))).toEqual({
      code: Code.BELOW_MINIMUM,
      data: { asset: 'USDT', minimum: '10.000000' },
    });
    expect(await refusal(swap.quote('demo', user, usdtToBtc('100000.000001')))).toEqual({
      code: Code.ABOVE_MAXIMUM,
      data: { asset: 'USDT', maximum: '100000.000000' },
    });
    expect(await codeOf(swap.quote('demo', user, usdtToBtc('10.0000001')))).toBe(Code.INVALID_INPUT);
    expect(await codeOf(swap.quote('demo', user, { from: 'BTC', to: 'BTC', amount: '1' }))).toBe(
      Code.INVALID_INPUT,
    );
    await expect(swap.quote('demo', user, usdtToBtc('10'))).resolves.toMatchObject({ amount: '10.000000' });
  });

  it('answers 10015 while a price is unavailable (closed or stale), for the quote and the commit', async () => {
    const user = (await ctx.customer()).id;
    const q = await swap.quote('demo', user, usdtToBtc('100'));
    prices.BTCUSDT = null;
    expect(await codeOf(swap.quote('demo', user, usdtToBtc('100')))).toBe(Code.NOT_AVAILABLE_FOR_TRADING);
    expect(await codeOf(swap.commit('demo', user, { quoteId: q.quoteId, requestId: 'closed-1' }))).toBe(
      Code.NOT_AVAILABLE_FOR_TRADING,
    );
    const pairs = await swap.pairs();
    expect(pairs).toHaveLength(12);
    for (const p of pairs) {
      const priced = p.from !== 'BTC' && p.to !== 'BTC';
      expect(p.available).toBe(priced);
      expect(p.rate === null).toBe(!priced);
    }
    expect(await balance('demo', user, 'USDT')).toBe(100_000_000_000n);
  });

  it('answers 10015 for a pair switched off, at the quote and at a commit of an earlier quote', async () => {
    const user = (await ctx.customer()).id;
    const admin = await ctx.staffMember('admin');
    const q = await swap.quote('demo', user, usdtToBtc('100'));
    const off = {
      from: 'USDT',
      to: 'BTC',
      min: '10',
      max: '100000',
      feeRate: '0.001',
      enabled: false,
    } as const;
    expect(await swap.updatePair(admin.id, off)).toMatchObject({ enabled: false, updatedBy: admin.email });
    try {
      expect(await codeOf(swap.quote('demo', user, usdtToBtc('100')))).toBe(Code.NOT_AVAILABLE_FOR_TRADING);
      expect(await codeOf(swap.commit('demo', user, { quoteId: q.quoteId, requestId: 'off-1' }))).toBe(
        Code.NOT_AVAILABLE_FOR_TRADING,
      );
      expect((await swap.pairs()).find((p) => p.from === 'USDT' && p.to === 'BTC')).toMatchObject({
        available: false,
      });
    } finally {
      await swap.updatePair(admin.id, { ...off, enabled: true });
    }
    const audited = await t.db.query<{ action: string; actor: string }>(
      `SELECT action, actor FROM audit_log WHERE subject = 'swap:USDT-BTC' ORDER BY seq`,
    );
    expect(audited).toEqual([
      { action: 'swap.pair.updated', actor: `staff:${admin.id}` },
      { action: 'swap.pair.updated', actor: `staff:${admin.id}` },
    ]);
    expect(await balance('demo', user, 'USDT')).toBe(100_000_000_000n);
  });

  it('dates a swap and a pair’s change by the service clock, not the database’s (issue 41 #20)', async () => {
    // The service's clock is days from the database's: the record's time is the service's.
    expect(Math.abs(clock - Date.now())).toBeGreaterThan(86_400_000);
    const at = new Date(clock).toISOString();
    const user = (await ctx.customer()).id;
    const q = await swap.quote('demo', user, usdtToBtc('100'));
    const done = await swap.commit('demo', user, { quoteId: q.quoteId, requestId: 'clock-1' });
    expect(done.createdAt).toBe(at);
    expect((await swap.history('demo', user, undefined))[0]?.createdAt).toBe(at);

    const admin = await ctx.staffMember('admin');
    const pair = (await swap.adminPairs()).find((p) => p.from === 'USDT' && p.to === 'ETH');
    if (!pair) throw new Error('no USDT-ETH pair');
    const { updatedAt: _at, updatedBy: _by, ...settings } = pair;
    expect((await swap.updatePair(admin.id, settings)).updatedAt).toBe(at);
  });
});
