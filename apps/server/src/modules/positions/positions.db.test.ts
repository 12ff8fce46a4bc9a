import { Code, parseCentilots, QUOTE_VALID_SECONDS } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import { KeyRing } from '../../platform/keys.ts';
import type { TestContext } from '../../test/context.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { DEMO_FUNDING_MINOR, LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { MarketService } from '../market/market.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { QuoteHolder } from '../products/quotes.ts';
import { TriggerEngine } from './positions.engine.ts';
import { reconcileMargins } from './positions.jobs.ts';
import { PositionsService } from './positions.service.ts';
import { longTicket, placeOrder, refusal, scriptedBtc, scriptedPositions } from './positions.testing.ts';

/**
 * Positions against the real ledger and database. Prices come from a scripted path per test
 * (`path`), so a trigger's tick and price are known in advance; ticks are driven by hand.
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
let aapl: Instrument;

// Wednesday 18 November 2026, 15:00 UTC: US stocks open (10:00 in New York), crypto always.
const START = Date.UTC(2026, 10, 18, 15, 0, 0) / 1000;
let clock = START;
/** Scripted mids per second for BTCUSDT (ticks of 0.01); the spread is 2 ticks each side. */
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
  aapl = market.instrument('AAPL') as Instrument;
});
afterAll(() => t.close());

// The ledger is sound after every test, and every customer's margin account holds exactly the
// margins of their open positions.
afterEach(() =>
  expectLedgerSound({
    db: t.db,
    ledger,
    audit,
    subLedgers: [() => reconcileMargins(trading, ledger, audit)],
  }),
);

/** A customer registered through identity, with the demo book's 100,000 USDT; their id. */
async function newCustomer(): Promise<number> {
  return (await ctx.customer()).id;
}

const wallet = async (user: number) =>
  (await ledger.balances('demo', user)).find((b) => b.asset === 'USDT') ?? {
    balance: 0n,
    held: 0n,
    available: 0n,
  };

/** A flat path at `mid` from `from` for `seconds`, then the given moves one per second. */
function flat(mid: bigint, from = clock - 10, seconds = 20): void {
  path = new Map();
  for (let s = from; s < from + seconds; s++) path.set(s, mid);
}

const ticket = (over: Record<string, unknown> = {}) => ({ ...longTicket(btc.id), ...over });

describe(`trading on ${TEST_DB}`, () => {
  it('previews the figures a long would open with: ask price, notional, margin = notional / leverage, fee 0.1 %', () => {
    clock = START;
    flat(10_000_000n); // 100,000.00
    const figures = trading.preview(ticket(), { customerId: null, book: 'demo' });
    expect(figures.quoteTime).toBe(START);
    expect(figures.expiresAt).toBe(START + QUOTE_VALID_SECONDS);
    expect(figures.price).toBe('100002.00'); // the ask: mid + 2.00
    expect(figures.bid).toBe('99998.00');
    expect(figures.spread).toBe('4.00');
    // 0.10 lot × 1 BTC × 100,002.00 = 10,000.20 USDT
    expect(figures.notional).toBe('10000.200000');
    expect(figures.margin).toBe('5000.100000'); // ÷ 2
    expect(figures.fee).toBe('10.000200'); // × 0.001
    expect(figures.cost).toBe('5010.100200');
    // take profit 120,000.00: (120,000.00 − 100,002.00) × 0.1 = 1,999.80
    expect(figures.profitAtTakeProfit).toBe('1999.800000');
    expect(figures.lossAtStopLoss).toBe('-1000.200000'); // (90,000 − 100,002) × 0.1
    // stop-out when the loss reaches half the margin, 2,500.05: a fall of 25,000.50 from the open
    expect(figures.liquidationPrice).toBe('75001.50');
    expect(figures.unreasonable).toEqual([]);
  });

  it('opens a long: margin and fee leave the available balance in one entry; the margin shows as held', async () => {
    clock = START + 100;
    flat(10_000_000n);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket(), 'req-open-1');
    expect(order).toMatchObject({
      status: 'open',
      openPrice: '100002.00',
      margin: '5000.100000',
      fee: '10.000200',
      lots: '0.10',
      direction: 'long',
      markPrice: '99998.00',
      profit: '-0.400000', // closing now at the bid loses the spread: 4.00 × 0.1
    });
    const w = await wallet(user);
    expect(w.balance).toBe(DEMO_FUNDING_MINOR - 10_000_200n); // the fee left the book; margin still ours
    expect(w.held).toBe(5_000_100_000n);
    expect(w.available).toBe(DEMO_FUNDING_MINOR - 5_000_100_000n - 10_000_200n);
    // The same request again opens nothing new.
    const again = await placeOrder(trading, user, ticket(), 'req-open-1');
    expect(again.id).toBe(order.id);
    expect((await trading.list(user, 'demo', { status: 'open' })).total).toBe(1);
  });

  it('refuses what cannot open, with the catalogue codes', async () => {
    clock = START + 200;
    flat(10_000_000n);
    const user = await newCustomer();
    const preview = (over: Record<string, unknown>) => () =>
      trading.preview(ticket(over), { customerId: user, book: 'demo' });
    const open = (over: Record<string, unknown>) =>
      placeOrder(trading, user, ticket(over), `r-${Math.random()}`);
    // What cannot open is refused by the preview already.
    expect((await refusal(preview({ marketId: 999_999 }))).code).toBe(Code.OPTIONS_PRODUCT_INCORRECT);
    expect((await refusal(preview({ leverage: 5 }))).code).toBe(Code.OPTIONS_PRODUCT_INCORRECT); // crypto: at most 2
    expect((await refusal(preview({ lots: '0.00' }))).code).toBe(Code.INCORRECT_PURCHASE_AMOUNT);
    expect((await refusal(preview({ lots: '100.01' }))).code).toBe(Code.INCORRECT_PURCHASE_AMOUNT);
    expect((await refusal(preview({ stopLoss: '90000.001' }))).code).toBe(Code.INVALID_INPUT);
    // Unreasonable stops: the preview says which, and the order at that quote is refused naming each.
    expect(preview({ stopLoss: '100500.00' })().unreasonable).toEqual(['stopLoss']);
    expect((await refusal(open({ stopLoss: '100500.00' }))).data).toEqual([
      { path: 'stopLoss', issue: 'unreasonable' },
    ]);
    expect((await refusal(open({ takeProfit: '99000.00' }))).data).toEqual([
      { path: 'takeProfit', issue: 'unreasonable' },
    ]);
    expect((await refusal(open({ stopLoss: '70000.00', takeProfit: '1.00' }))).data).toEqual([
      { path: 'stopLoss', issue: 'unreasonable' }, // beyond the stop-out price 75,001.50
      { path: 'takeProfit', issue: 'unreasonable' },
    ]);
    // The live book is empty: insufficient balance, and nothing moved.
    const live = placeOrder(trading, user, ticket(), 'live-1', { book: 'live' });
    expect((await refusal(live)).code).toBe(Code.INSUFFICIENT_BALANCE);
    expect((await trading.list(user, 'live', {})).total).toBe(0);
    // Sunday: US stocks are closed.
    const sunday = Date.UTC(2026, 10, 22, 15, 0, 0) / 1000;
    const closed = new PositionsService({
      db: t.db,
      ledger: new LedgerService(t.db, audit),
      market,
      bus: createMemoryBus(),
      now: () => sunday * 1000,
    });
    const sundayPreview = () =>
      closed.preview(
        { ...ticket(), marketId: aapl.id, leverage: 5, stopLoss: '1.00', takeProfit: '999.00' },
        { customerId: user, book: 'demo' },
      );
    expect((await refusal(sundayPreview)).code).toBe(Code.NOT_AVAILABLE_FOR_TRADING);
  });

  it('quote, then commit: the order opens at the quoted figures until the quote expires, and only for its holder', async () => {
    clock = START + 250;
    flat(10_000_000n, clock - 10, 40);
    const user = await newCustomer();
    const holder = { customerId: user, book: 'demo' as const };
    const quoted = trading.preview(ticket(), holder);
    const order = (quoteId: string, requestId: string, over: Record<string, unknown> = {}) =>
      trading.open(user, 'demo', 'en', { ...ticket(over), quoteId, requestId });
    // The price moves after the quote (a real market's past second is not recomputed): the order
    // still opens at exactly the quoted figures, up to the quote's last second.
    for (let s = clock; s < clock + 40; s++) path.set(s, 10_100_000n);
    clock = quoted.expiresAt;
    const opened = await order(quoted.quoteId, 'quote-1');
    expect(opened).toMatchObject({ openPrice: quoted.price, margin: quoted.margin, fee: quoted.fee });
    // One second later it has expired: 10032, unless the same order is retried (it answers the order).
    clock = quoted.expiresAt + 1;
    expect((await refusal(order(quoted.quoteId, 'quote-2'))).code).toBe(Code.PRICE_CHANGED);
    expect((await order(quoted.quoteId, 'quote-1')).id).toBe(opened.id);
    // Another customer's quote, the other book's, or one asked without a session: nothing found.
    const fresh = (h: QuoteHolder) => trading.preview(ticket(), h).quoteId;
    const other = await newCustomer();
    expect((await refusal(order(fresh({ customerId: other, book: 'demo' }), 'quote-3'))).code).toBe(
      Code.NOT_FOUND,
    );
    expect((await refusal(order(fresh({ customerId: user, book: 'live' }), 'quote-4'))).code).toBe(
      Code.NOT_FOUND,
    );
    expect((await refusal(order(fresh({ customerId: null, book: 'demo' }), 'quote-5'))).code).toBe(
      Code.NOT_FOUND,
    );
    // A quote of another ticket, or an id this server did not sign: invalid input.
    expect((await refusal(order(fresh(holder), 'quote-6', { lots: '0.20' }))).data).toEqual([
      { path: 'quoteId', issue: 'other_ticket' },
    ]);
    const good = fresh(holder);
    const [keyId = '', payload = '', mac = ''] = good.split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { f: { marginMinor: string } };
    forged.f.marginMinor = '1';
    const tampered = [
      `${keyId}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`,
      `${keyId}.${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${keyId.slice(0, -1)}${keyId.endsWith('A') ? 'B' : 'A'}.${payload}.${mac}`,
      `${payload}.${mac}`,
      `${keyId}.${payload}.${mac}.${mac}`,
      'not-a-quote',
    ];
    for (const quoteId of tampered)
      expect((await refusal(order(quoteId, `quote-t-${Math.random()}`))).data).toEqual([
        { path: 'quoteId', issue: 'invalid' },
      ]);
    // Signed under another key (a node that does not share the quote key): not this server's.
    const stranger = new PositionsService({
      db: t.db,
      ledger: new LedgerService(t.db, audit),
      market,
      bus: createMemoryBus(),
      now: () => clock * 1000,
      quote: scripted,
    });
    expect((await refusal(order(stranger.preview(ticket(), holder).quoteId, 'quote-7'))).code).toBe(
      Code.INVALID_INPUT,
    );
    // The balance no longer covers the quote when it is committed: 10011, and nothing moved.
    const poor = await newCustomer();
    const quote = trading.preview(ticket(), { customerId: poor, book: 'demo' });
    await ledger.transfer({
      book: 'demo',
      kind: 'transfer',
      idempotencyKey: `drain-wallet-${poor}`,
      actor: 'test',
      postings: [
        {
          accountId: await ledger.walletAccount('demo', poor, 'USDT'),
          amount: -(DEMO_FUNDING_MINOR - 1_000_000n),
        },
        {
          accountId: await ledger.walletAccount('demo', other, 'USDT'),
          amount: DEMO_FUNDING_MINOR - 1_000_000n,
        },
      ],
    });
    const late = trading.open(poor, 'demo', 'en', {
      ...ticket(),
      quoteId: quote.quoteId,
      requestId: 'quote-8',
    });
    expect((await refusal(late)).code).toBe(Code.INSUFFICIENT_BALANCE);
    expect((await trading.list(poor, 'demo', {})).total).toBe(0);
  });

  it('every node verifies every node’s quotes when they share the quote key', async () => {
    clock = START + 280;
    flat(10_000_000n);
    const keys = KeyRing.random().purpose('quotes');
    const node = () =>
      new PositionsService({
        db: t.db,
        ledger: new LedgerService(t.db, audit),
        market,
        bus: createMemoryBus(),
        now: () => clock * 1000,
        quote: scripted,
        quoteKeys: keys,
      });
    const [a, b] = [node(), node()];
    const user = await newCustomer();
    const quoted = a.preview(ticket(), { customerId: user, book: 'demo' });
    const opened = await b.open(user, 'demo', 'en', {
      ...ticket(),
      quoteId: quoted.quoteId,
      requestId: 'node-b',
    });
    expect(opened).toMatchObject({ openPrice: quoted.price, margin: quoted.margin });
    await b.close(user, 'demo', opened.id);
  });

  it('closes at the market: the profit is the move times the size, and only the fee is lost on a flat market', async () => {
    clock = START + 300;
    flat(10_000_000n, clock - 10, 1000);
    const user = await newCustomer();
    const order = await placeOrder(
      trading,
      user,
      ticket({ direction: 'short', stopLoss: '110000.00', takeProfit: '90000.00' }),
      'short-1',
    );
    expect(order.openPrice).toBe('99998.00'); // a short opens at the bid
    for (let s = clock + 1; s < clock + 1000; s++) path.set(s, 9_900_000n); // the market falls to 99,000.00
    clock += 5;
    const closed = await trading.close(user, 'demo', order.id);
    // closes at the ask 99,002.00: (99,998.00 − 99,002.00) × 0.1 = 99.60
    expect(closed).toMatchObject({
      status: 'closed',
      closeReason: 'manual',
      closePrice: '99002.00',
      profit: '99.600000',
    });
    const w = await wallet(user);
    expect(w.held).toBe(0n);
    expect(w.balance).toBe(DEMO_FUNDING_MINOR - 9_999_800n + 99_600_000n); // − fee (0.1 % of 9,999.80) + profit
    // Closing again changes nothing; another customer cannot see or close it.
    expect((await trading.close(user, 'demo', order.id)).closePrice).toBe('99002.00');
    const other = await newCustomer();
    expect((await refusal(trading.close(other, 'demo', order.id))).code).toBe(Code.NOT_FOUND);
    expect((await refusal(trading.get(other, 'demo', order.id))).code).toBe(Code.NOT_FOUND);
    expect((await refusal(trading.updateStops(other, 'demo', order.id, '1.00', '2.00'))).code).toBe(
      Code.NOT_FOUND,
    );
  });

  it('the engine closes a long at the first tick whose bid reaches the take profit, once, with a notice', async () => {
    clock = START + 2000;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ takeProfit: '100100.00' }), 'tp-1', {
      language: 'fr',
    });
    await engine.idle();
    await engine.tick(clock); // its own second: not yet live
    path.set(clock + 1, 10_010_100n); // bid 100,099.00: not yet
    path.set(clock + 2, 10_010_315n); // bid 100,101.15: crosses
    path.set(clock + 3, 10_050_000n);
    await engine.idle();
    await engine.tick(clock + 3);
    const closed = await trading.get(user, 'demo', order.id);
    expect(closed).toMatchObject({ status: 'closed', closeReason: 'take_profit', closePrice: '100101.15' });
    expect(closed.profit).toBe('9.915000'); // (100,101.15 − 100,002.00) × 0.1
    await engine.idle();
    await engine.tick(clock + 4);
    const entries = await t.db.query(`SELECT id FROM ledger_entries WHERE idempotency_key = $1`, [
      `trade-close:${order.id}`,
    ]);
    expect(entries).toHaveLength(1);
    const [notice] = await notices.list(user, 'fr');
    expect(notice?.noticeContent).toContain('prise de bénéfice');
    // The exact result, as every screen shows it (formatDisplay), not rounded to cents (9,92).
    expect(notice?.noticeContent).toContain('9,915');
    expect(notice?.noticeContent).toContain('(compte démo)');
    // The same notice read in another language is in that language.
    const [inGerman] = await notices.list(user, 'de');
    expect(inGerman?.noticeContent).toContain('Take-Profit erreicht');
    expect(inGerman?.noticeContent).toContain('(Demo-Konto)');
    expect(inGerman?.noticeContent).toContain('9,915');
    const [inEnglish] = await notices.list(user, 'en');
    expect(inEnglish?.noticeContent).toContain('9.915');
  });

  it('a gap through the stop-out closes at the gap price; the loss beyond the margin is absorbed by the house', async () => {
    clock = START + 3000;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ stopLoss: '80000.00' }), 'gap-1');
    path.set(clock + 1, 3_000_000n); // a crash to 30,000.00: beyond stop loss, stop-out and the margin
    const before = await wallet(user);
    await engine.idle();
    await engine.tick(clock + 1);
    const closed = await trading.get(user, 'demo', order.id);
    // bid 29,998.00: loss (100,002.00 − 29,998.00) × 0.1 = 7,000.40 > margin 5,000.10
    expect(closed).toMatchObject({
      closeReason: 'stop_loss',
      profit: '-7000.400000',
      absorbed: '2000.300000',
    });
    const after = await wallet(user);
    expect(after.held).toBe(0n);
    expect(after.balance).toBe(before.balance - 5_000_100_000n); // only the margin is lost, never more
  });

  it('a restarted engine replays the seconds it missed: a take profit crossed while it was down still closes at that tick', async () => {
    clock = START + 5000;
    flat(10_000_000n, clock - 10, 20);
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ takeProfit: '100100.00' }), 'restart-1');
    await engine.idle();
    await engine.tick(clock);
    engine.stop(); // the node goes down
    path.set(clock + 3, 10_010_300n); // bid 100,101.00 crosses the take profit …
    path.set(clock + 4, 10_000_000n); // … and falls back before the node is up again
    const restarted = new TriggerEngine({ trading, db: t.db, bus });
    await restarted.start();
    await restarted.tick(clock + 10);
    expect(await trading.get(user, 'demo', order.id)).toMatchObject({
      status: 'closed',
      closeReason: 'take_profit',
      closePrice: '100101.00',
    });
    engine = restarted;
  });

  it('two nodes running the same tick close a position once, with one notice', async () => {
    clock = START + 6000;
    flat(10_000_000n, clock - 10, 20);
    const otherLedger = new LedgerService(t.db, audit);
    const otherNode = new PositionsService({
      db: t.db,
      ledger: otherLedger,
      market,
      bus,
      notices,
      now: () => clock * 1000,
      quote: scripted,
    });
    const otherEngine = new TriggerEngine({ trading: otherNode, db: t.db, bus });
    await otherEngine.start();
    const user = await newCustomer();
    const order = await placeOrder(trading, user, ticket({ stopLoss: '99900.00' }), 'two-nodes-1');
    await Promise.all([engine.idle(), otherEngine.idle()]);
    expect(otherEngine.openCount).toBeGreaterThan(0);
    path.set(clock + 1, 9_980_000n); // bid 99,798.00: through the stop loss
    await Promise.all([engine.tick(clock + 1), otherEngine.tick(clock + 1)]);
    expect(await trading.get(user, 'demo', order.id)).toMatchObject({
      status: 'closed',
      closeReason: 'stop_loss',
      closePrice: '99798.00',
    });
    const entries = await t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
      `trade-close:${order.id}`,
    ]);
    expect(entries).toHaveLength(1);
    const closedNotices = (await notices.list(user, 'en')).filter((n) =>
      n.noticeContent.includes('stop loss'),
    );
    expect(closedNotices).toHaveLength(1);
    otherEngine.stop();
  });

  it('margin reconciliation flags a margin account that differs from the open positions, and alerts staff', async () => {
    const user = await newCustomer();
    const stray = await ledger.transfer({
      book: 'demo',
      kind: 'transfer',
      idempotencyKey: `stray-margin:${user}`,
      actor: 'test',
      postings: [
        { accountId: await ledger.walletAccount('demo', user, 'USDT'), amount: -1_000_000n },
        { accountId: await ledger.accountId('demo', user, 'USDT', 'margin'), amount: 1_000_000n },
      ],
    });
    expect(await reconcileMargins(trading, ledger, audit)).toEqual([
      { book: 'demo', userId: user, ledger: '1000000', positions: '0' },
    ]);
    await ledger.reverse(stray.entryId, {
      actor: 'test',
      reason: 'undo the stray margin',
      idempotencyKey: `undo-stray-margin:${user}`,
    });
  });

  it("the customer's record: one event per entry with the order number, margin, fee and result; postings net to zero", async () => {
    clock = START + 8000;
    flat(10_000_000n, clock - 10, 1000); // 100,000.00
    const user = await newCustomer();
    const long = await placeOrder(trading, user, ticket({ takeProfit: '200000.00' }), 'record-long');
    const short = await placeOrder(
      trading,
      user,
      ticket({ direction: 'short', stopLoss: '110000.00', takeProfit: '90000.00' }),
      'record-short',
    );
    // The demo book cannot be reset while positions are open, and says so (not "insufficient").
    await expect(ledger.resetDemo(user, 'while-open')).rejects.toMatchObject({ reason: 'positions_open' });
    for (let s = clock + 1; s < clock + 1000; s++) path.set(s, 10_050_000n); // up to 100,500.00
    clock += 5;
    await trading.close(user, 'demo', long.id); // at the bid 100,498.00: (100,498.00 − 100,002.00) × 0.1 = +49.60
    await trading.close(user, 'demo', short.id); // at the ask 100,502.00: (99,998.00 − 100,502.00) × 0.1 = −50.40

    const events = await ledger.eventsOf('demo', user, { limit: 10 });
    expect(events.map((e) => [e.kind, e.detail?.orderNo ?? null])).toEqual([
      ['trade_pnl', short.orderNo],
      ['trade_pnl', long.orderNo],
      ['trade_margin', short.orderNo],
      ['trade_margin', long.orderNo],
      ['demo_funding', null],
    ]);
    expect(long.orderNo).toMatch(/^SWX\d{9}$/);
    const [closeShort, closeLong, openShort, openLong, funding] = events;
    expect(openLong).toMatchObject({
      asset: 'USDT',
      detail: { orderNo: long.orderNo, instrument: 'BTCUSDT', closeReason: null },
      margin: 5_000_100_000n, // held
      fee: 10_000_200n, // 0.1 % of 10,000.20
      result: null,
      changes: [{ asset: 'USDT', amount: -10_000_200n }], // the total falls by the fee only
    });
    expect(openShort).toMatchObject({ margin: 4_999_900_000n, fee: 9_999_800n, result: null });
    expect(closeLong).toMatchObject({
      detail: { orderNo: long.orderNo, closeReason: 'manual' },
      margin: -5_000_100_000n, // released
      fee: null,
      result: 49_600_000n, // profit
      changes: [{ asset: 'USDT', amount: 49_600_000n }],
    });
    expect(closeShort).toMatchObject({
      detail: { orderNo: short.orderNo, closeReason: 'manual' },
      margin: -4_999_900_000n,
      result: -50_400_000n, // loss
      changes: [{ asset: 'USDT', amount: -50_400_000n }],
    });
    expect(funding).toMatchObject({ margin: null, fee: null, result: null });
    // The postings behind each event: the customer's wallet and margin and the platform's side,
    // netting to zero; the open pays the fee into the fee account, the close settles with the house.
    expect(openLong?.postings).toHaveLength(3);
    expect(openLong?.postings).toEqual(
      expect.arrayContaining([
        { account: 'wallet', own: true, asset: 'USDT', amount: -5_010_100_200n },
        { account: 'margin', own: true, asset: 'USDT', amount: 5_000_100_000n },
        { account: 'fees', own: false, asset: 'USDT', amount: 10_000_200n },
      ]),
    );
    for (const e of events)
      expect(
        e.postings.reduce((sum, p) => sum + p.amount, 0n),
        `${e.entryId}`,
      ).toBe(0n);
    expect(closeShort?.postings.find((p) => p.account === 'house_pnl')?.amount).toBe(50_400_000n);
    expect(closeLong?.postings.find((p) => p.account === 'house_pnl')?.amount).toBe(-49_600_000n);
    // The record adds up: its changes sum to the balance.
    const total = events.reduce((sum, e) => sum + (e.changes[0]?.amount ?? 0n), 0n);
    expect(total).toBe((await wallet(user)).balance);
    expect(total).toBe(DEMO_FUNDING_MINOR - 10_000_200n - 9_999_800n + 49_600_000n - 50_400_000n);
    // Pages by entry: two, then the rest after the last one; a kind filter keeps whole events.
    const first = await ledger.eventsOf('demo', user, { limit: 2 });
    const rest = await ledger.eventsOf('demo', user, { limit: 10, beforeId: first.at(-1)?.entryId ?? 0 });
    expect([...first, ...rest].map((e) => e.entryId)).toEqual(events.map((e) => e.entryId));
    const opens = await ledger.eventsOf('demo', user, { kind: 'trade_margin', limit: 10 });
    expect(opens.map((e) => e.postings.length)).toEqual([3, 3]);
    // Nobody else's record shows them; the live book has none.
    expect(await ledger.eventsOf('demo', await newCustomer(), { limit: 10 })).toHaveLength(1);
    expect(await ledger.eventsOf('live', user, { limit: 10 })).toEqual([]);
    // With every position closed, the reset goes through and is an event of its own.
    await ledger.resetDemo(user, 'after-close');
    const [reset] = await ledger.eventsOf('demo', user, { limit: 1 });
    expect(reset).toMatchObject({
      kind: 'demo_reset',
      changes: [{ asset: 'USDT', amount: 10_000_200n + 9_999_800n - 49_600_000n + 50_400_000n }],
    });
  });

  it('property: over random price paths, every position closes at most once, at its first crossing, for move × size', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Moves of up to 400.00 a second, and now and then a gap of up to 30,000.00 (through stops,
        // stop-out and the margin itself).
        fc.array(
          fc.oneof(
            { weight: 30, arbitrary: fc.integer({ min: -40_000, max: 40_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: -3_000_000, max: 3_000_000 }) },
          ),
          { minLength: 30, maxLength: 120 },
        ),
        fc.array(
          fc.record({
            long: fc.boolean(),
            lots: fc.integer({ min: 1, max: 30 }),
            leverage: fc.constantFrom(1, 2),
            sl: fc.integer({ min: 1, max: 200 }),
            tp: fc.integer({ min: 1, max: 200 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (moves, specs) => {
          clock += 500;
          const t0 = clock;
          flat(10_000_000n, t0 - 10, 11);
          let mid = 10_000_000n;
          moves.forEach((m, i) => {
            mid = mid + BigInt(m) > 100_000n ? mid + BigInt(m) : 100_000n;
            path.set(t0 + 1 + i, mid);
          });
          const user = await newCustomer();
          const start = await wallet(user);
          const opened = [];
          for (const [i, spec] of specs.entries()) {
            const open = spec.long ? 10_000_200n : 9_999_800n;
            const direction = spec.long ? ('long' as const) : ('short' as const);
            const sign = spec.long ? 1n : -1n;
            const sl = open - sign * BigInt(spec.sl) * 1000n; // 10.00 to 2,000.00 away
            const tp = open + sign * BigInt(spec.tp) * 1000n;
            const order = await placeOrder(
              trading,
              user,
              {
                ...ticket({
                  direction,
                  lots: `${Math.floor(spec.lots / 100)}.${String(spec.lots % 100).padStart(2, '0')}`,
                  leverage: spec.leverage,
                }),
                stopLoss: (Number(sl) / 100).toFixed(2),
                takeProfit: (Number(tp) / 100).toFixed(2),
              },
              `prop-${t0}-${i}`,
            );
            opened.push({ order, spec, sl, tp, open, direction });
          }
          await engine.idle();
          await engine.tick(t0 + moves.length);
          let fees = 0n;
          let realised = 0n;
          for (const { order, sl, tp, open, direction } of opened) {
            const got = await trading.get(user, 'demo', order.id);
            fees += BigInt(got.fee.replace('.', ''));
            // The oracle: scan the path for the first crossing after the position went live.
            let expected: { t: number; reason: string; price: bigint } | null = null;
            for (let s = t0 + 1; s <= t0 + moves.length && !expected; s++) {
              const m = path.get(s) as bigint;
              const price = direction === 'long' ? m - SPREAD : m + SPREAD;
              const liq = BigInt(got.liquidationPrice.replace('.', ''));
              const long = direction === 'long';
              if (long ? price >= tp : price <= tp) expected = { t: s, reason: 'take_profit', price };
              else if (long ? price <= sl : price >= sl) expected = { t: s, reason: 'stop_loss', price };
              else if (long ? price <= liq : price >= liq) expected = { t: s, reason: 'stop_out', price };
            }
            if (!expected) {
              expect(got.status).toBe('open');
              await trading.close(user, 'demo', order.id);
              const closedNow = await trading.get(user, 'demo', order.id);
              realised +=
                BigInt(closedNow.profit.replace('.', '')) + BigInt(closedNow.absorbed.replace('.', ''));
              continue;
            }
            expect(got).toMatchObject({ status: 'closed', closeReason: expected.reason });
            expect(BigInt((got.closePrice as string).replace('.', ''))).toBe(expected.price);
            // profit = move × size: ticks of 0.01 × centilots × 1 BTC lot → USDT minor units
            const centilots = parseCentilots(got.lots) as bigint;
            const move = direction === 'long' ? expected.price - open : open - expected.price;
            const exact = move * centilots * 1_000_000n;
            const floor = exact >= 0n ? exact / 10_000n : -((-exact + 9_999n) / 10_000n);
            expect(BigInt(got.profit.replace('.', ''))).toBe(floor);
            realised += floor + BigInt(got.absorbed.replace('.', ''));
            const keys = await t.db.query(`SELECT id FROM ledger_entries WHERE idempotency_key = $1`, [
              `trade-close:${order.id}`,
            ]);
            expect(keys).toHaveLength(1);
          }
          const end = await wallet(user);
          expect(end.held).toBe(0n);
          expect(end.balance >= 0n).toBe(true);
          // wallet = start − fees + profits, except what the house absorbed beyond a margin
          expect(end.balance).toBe(start.balance - fees + realised);
        },
      ),
      { numRuns: 25 },
    );
  });
});
