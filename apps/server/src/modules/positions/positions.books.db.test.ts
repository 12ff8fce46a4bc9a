import { Code } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import type { TestContext } from '../../test/context.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { TickQuote } from '../market/pricing.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { PositionsService } from './positions.service.ts';
import { longTicket, placeOrder, positionsParts, refusal } from './positions.testing.ts';

/**
 * Every read and change of a position is scoped to the request's book: a demo id with the live
 * header (and the reverse) is "nothing found", and a request id reused in the other book never
 * answers with the other book's order.
 */
let t: TestDatabase;
let ctx: TestContext;
let ledger: LedgerService;
let trading: PositionsService;
let btc: Instrument;

// Wednesday 18 November 2026, 15:00 UTC; BTCUSDT flat at 100,000.00 with 2.00 each side.
let clock = Date.UTC(2026, 10, 18, 15, 0, 0) / 1000;
const flat = (): TickQuote => ({ mid: 10_000_000n, bid: 9_999_800n, ask: 10_000_200n });

beforeAll(async () => {
  t = await openTestDatabase();
  const parts = await positionsParts(t.db, () => clock * 1000);
  ledger = parts.ledger;
  ctx = parts.ctx;
  const market = parts.market;
  trading = new PositionsService({
    db: t.db,
    ledger,
    market,
    bus: createMemoryBus(),
    notices: new NoticesService(t.db),
    now: () => clock * 1000,
    quote: flat,
  });
  btc = market.instrument('BTCUSDT') as Instrument;
});
afterAll(() => t.close());
afterEach(() => expectLedgerSound(ctx));

/** A registered customer with 50,000 USDT deposited into the live book (as the deposit flow books it). */
async function customerWithLiveMoney(): Promise<number> {
  return (await ctx.customer({ live: 50_000_000_000n })).id;
}

const place = (user: number, book: Book, requestId: string) =>
  placeOrder(trading, user, longTicket(btc.id), requestId, { book });
const codeOf = async (run: Promise<unknown>): Promise<number> => (await refusal(run)).code;

describe(`positions scoped to their book on ${TEST_DB}`, () => {
  it('answers 10028 to an id of the other book for get, close and stops, both ways; the list shows its own book only', async () => {
    const user = await customerWithLiveMoney();
    const demo = await place(user, 'demo', 'books-demo');
    const live = await place(user, 'live', 'books-live');
    for (const [id, other] of [
      [demo.id, 'live'],
      [live.id, 'demo'],
    ] as [number, Book][]) {
      expect(await codeOf(trading.get(user, other, id))).toBe(Code.NOT_FOUND);
      expect(await codeOf(trading.close(user, other, id))).toBe(Code.NOT_FOUND);
      expect(await codeOf(trading.updateStops(user, other, id, '91000.00', '119000.00'))).toBe(
        Code.NOT_FOUND,
      );
    }
    // Nothing changed: both still open with their stops.
    expect(await trading.get(user, 'demo', demo.id)).toMatchObject({ status: 'open', stopLoss: '90000.00' });
    expect(await trading.get(user, 'live', live.id)).toMatchObject({ status: 'open', stopLoss: '90000.00' });
    expect((await trading.list(user, 'demo', {})).items.map((o) => o.id)).toEqual([demo.id]);
    expect((await trading.list(user, 'live', {})).items.map((o) => o.id)).toEqual([live.id]);
    // In its own book each one is the customer's to change and close.
    expect(await trading.updateStops(user, 'live', live.id, '91000.00', '119000.00')).toMatchObject({
      stopLoss: '91000.00',
    });
    expect(await trading.close(user, 'demo', demo.id)).toMatchObject({ status: 'closed' });
    expect(await trading.close(user, 'live', live.id)).toMatchObject({ status: 'closed' });
  });

  it('never answers a request id reused in the other book with that book’s order', async () => {
    const user = await customerWithLiveMoney();
    const lateLive = trading.preview(longTicket(btc.id), { customerId: user, book: 'live' });
    const demo = await place(user, 'demo', 'books-same');
    expect(await codeOf(place(user, 'live', 'books-same'))).toBe(Code.INVALID_INPUT);
    // A late retry (quote expired) of the same id in the other book: not the demo order either.
    clock = lateLive.expiresAt + 1;
    expect(
      await codeOf(
        trading.open(user, 'live', 'en', {
          ...longTicket(btc.id),
          quoteId: lateLive.quoteId,
          requestId: 'books-same',
        }),
      ),
    ).toBe(Code.PRICE_CHANGED);
    // In its own book the retry answers with the order it opened.
    expect((await place(user, 'demo', 'books-same')).id).toBe(demo.id);
    expect((await trading.list(user, 'live', {})).total).toBe(0);
  });
});
