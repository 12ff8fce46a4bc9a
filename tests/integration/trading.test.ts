import type { OptionsOrder, TicketBody } from '@swx/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import { smallLong } from '../support/orders.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

function format(ticks: bigint, decimals: number): string {
  const digits = ticks.toString().padStart(decimals + 1, '0');
  return decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
}

const decimalsOf = (price: string) => price.split('.')[1]?.length ?? 0;

/** Decimal price text moved by a whole number of ticks at its own decimals. */
function shift(price: string, ticks: bigint): string {
  return format(BigInt(price.replace('.', '')) + ticks, decimalsOf(price));
}

function percentOf(price: string, percent: bigint): string {
  return format((BigInt(price.replace('.', '')) * percent) / 100n, decimalsOf(price));
}

describe('positions over HTTP, priced by the live feed', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let anonymous: CustomerApi;
  let alice: CustomerApi;
  let bob: CustomerApi;
  let btcId: number;

  const ticket = (over: Partial<TicketBody> = {}): TicketBody => ({ ...smallLong(btcId), ...over });

  /** A preview with stops 10 % away on the right sides, then an order at its quote. */
  async function openLong(session: CustomerApi, over: Partial<TicketBody> = {}) {
    const first = await anonymous.call('previewOptions', ticket());
    const stopLoss = percentOf(first.data.bid, 90n);
    const takeProfit = percentOf(first.data.bid, 110n);
    const preview = await anonymous.call('previewOptions', ticket({ stopLoss, takeProfit, ...over }));
    expect(preview.code).toBe(200);
    const opened = await session.call('buyOptions', {
      ...ticket({ stopLoss, takeProfit, ...over }),
      quoteTime: preview.data.quoteTime,
      requestId: crypto.randomUUID(),
    });
    return { preview, opened };
  }

  useServer({}, (s) => ({ server, inbox } = s));
  beforeAll(async () => {
    anonymous = customerApi(server, null, { language: 'en' });
    alice = customerApi(server, await registerByApi(server, inbox, 'alice.trader@example.com'), {
      language: 'en',
    });
    bob = customerApi(server, await registerByApi(server, inbox, 'bob.trader@example.com'), {
      language: 'en',
    });
    const crypto = await anonymous.ok('listMarketByType', { type: 2 });
    btcId = crypto.find((i) => i.code === 'BTCUSDT')?.id as number;
  });
  // Every test moves money: the server's ledger reconciles and its audit chain verifies after each.
  afterEach(() => expectLedgerSound(server), 60_000);

  it('states the terms of an instrument before anyone trades: lot, leverage capped at 2 for crypto, fee under 0.3 %', async () => {
    const terms = await anonymous.call('getTradingTerms', { id: btcId });
    expect(terms.data).toMatchObject({
      code: 'BTCUSDT',
      lotSize: '1',
      leverages: [1, 2],
      maxLeverage: 2,
      feeRate: '0.001',
    });
    const eurusd = await anonymous.call('listMarketByType', { type: 1 });
    const id = eurusd.data.find((i) => i.code === 'EURUSD')?.id as number;
    expect((await anonymous.call('getTradingTerms', { id })).data).toMatchObject({
      lotSize: '100000',
      maxLeverage: 30,
      quoteCurrency: 'USD',
    });
  });

  it('opens at the confirmed quote: the order carries the preview figures and the margin is held', async () => {
    const { preview, opened } = await openLong(alice);
    expect(opened.code).toBe(200);
    expect(opened.data).toMatchObject({
      status: 'open',
      openPrice: preview.data.price,
      margin: expect.any(String),
      fee: expect.any(String),
    });
    // The figures shown are the figures applied (same tick, same arithmetic).
    const again = await anonymous.call('previewOptions', {
      ...ticket({ stopLoss: shift(preview.data.bid, -1000n), takeProfit: shift(preview.data.bid, 1000n) }),
    });
    expect(again.code).toBe(200);
    const balances = await alice.call('getBalances');
    const held = balances.data.balances.find((b) => b.asset === 'USDT')?.held;
    expect(Number(held)).toBeGreaterThanOrEqual(Number(opened.data.margin));
  });

  it("another customer's position is unreachable: get, close and change stops all answer not found", async () => {
    const { opened } = await openLong(alice);
    const id = opened.data.id;
    expect((await bob.call('getOptionsOrderById', { id })).code).toBe(10028);
    expect((await bob.call('closeOptions', { id })).code).toBe(10028);
    expect((await bob.call('updateOptions', { id, stopLoss: '1.00', takeProfit: '999999.00' })).code).toBe(
      10028,
    );
    expect((await bob.call('listOptionsOrder')).data.total).toBe(0);
    expect((await anonymous.call('getOptionsOrderById', { id })).code).toBe(401);
    expect((await alice.call('getOptionsOrderById', { id })).data.status).toBe('open');
  });

  it('refuses unreasonable stops with a localized message naming each, and a stale quote with 10032', async () => {
    const preview = await anonymous.call('previewOptions', ticket());
    expect(preview.data.unreasonable).toEqual(['stopLoss', 'takeProfit']); // 1.00: beyond the stop-out, below the price
    const refused = await alice.call(
      'buyOptions',
      { ...ticket(), quoteTime: preview.data.quoteTime, requestId: crypto.randomUUID() },
      { language: 'de' },
    );
    expect(refused.code).toBe(10026);
    expect(refused.data).toEqual([
      { path: 'stopLoss', issue: 'unreasonable' },
      { path: 'takeProfit', issue: 'unreasonable' },
    ]);
    const stale = await alice.call(
      'buyOptions',
      {
        ...ticket(),
        quoteTime: preview.data.quoteTime - 60,
        requestId: crypto.randomUUID(),
      },
      { language: 'de' },
    );
    expect(stale).toMatchObject({ code: 10032, msg: expect.stringContaining('Kurs') });
    expect(
      (
        await alice.call('buyOptions', {
          ...ticket({ leverage: 10 }),
          quoteTime: preview.data.quoteTime,
          requestId: crypto.randomUUID(),
        })
      ).code,
    ).toBe(10014);
    expect(
      (
        await alice.call('buyOptions', {
          ...ticket({ lots: '0' }),
          quoteTime: preview.data.quoteTime,
          requestId: crypto.randomUUID(),
        })
      ).code,
    ).toBe(10016);
    // The live book holds nothing: insufficient balance.
    const live = await alice.call(
      'buyOptions',
      {
        ...ticket({
          stopLoss: percentOf(preview.data.bid, 90n),
          takeProfit: percentOf(preview.data.bid, 110n),
        }),
        quoteTime: preview.data.quoteTime,
        requestId: crypto.randomUUID(),
      },
      { book: 'live' },
    );
    expect([10011, 10032]).toContain(live.code);
  });

  it('closes at the market on request, and lists it in the history with the reason', async () => {
    const { opened } = await openLong(alice);
    const closed = await alice.call('closeOptions', { id: opened.data.id });
    expect(closed.data).toMatchObject({ status: 'closed', closeReason: 'manual' });
    const history = await alice.call('listOptionsOrder', { status: 'closed' });
    expect(history.data.items.map((o) => o.id)).toContain(opened.data.id);
  });

  it('the feed reaches a take profit one tick away: the engine closes the position and a notice follows', async () => {
    // A long whose take profit is one tick above the bid and a short one tick below the ask: the
    // market moves one way or the other within seconds, and one of them reaches its target.
    const base = await anonymous.call('previewOptions', ticket());
    const stops = {
      long: { stopLoss: percentOf(base.data.bid, 80n), takeProfit: shift(base.data.bid, 1n) },
      short: { stopLoss: percentOf(base.data.ask, 120n), takeProfit: shift(base.data.ask, -1n) },
    };
    const ids: number[] = [];
    for (const direction of ['long', 'short'] as const) {
      const body = ticket({ direction, ...stops[direction] });
      const preview = await anonymous.call('previewOptions', body);
      if (preview.data.unreasonable.length > 0) continue; // the market already passed it
      const order = await bob.call('buyOptions', {
        ...body,
        quoteTime: preview.data.quoteTime,
        requestId: crypto.randomUUID(),
      });
      if (order.code === 200) ids.push(order.data.id);
    }
    expect(ids.length).toBeGreaterThan(0);
    const closedOne = async () => {
      for (const id of ids) {
        const order = (await bob.call('getOptionsOrderById', { id })).data;
        if (order.status === 'closed') return order;
      }
      return null;
    };
    await expect.poll(closedOne, { timeout: 90_000, interval: 1000 }).not.toBeNull();
    const closed = (await closedOne()) as OptionsOrder;
    expect(closed.closeReason).toBe('take_profit');
    expect(Number(closed.profit)).toBeGreaterThan(-Number(closed.margin));
    const notices = await bob.call('getNoticeList');
    const orderNo = `SWX${String(closed.id).padStart(9, '0')}`;
    expect(notices.data.some((n) => n.noticeContent.includes(orderNo))).toBe(true);
  }, 120_000);
});
