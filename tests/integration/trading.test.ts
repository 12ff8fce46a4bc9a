import type { Position, TicketBody } from '@swx/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import { smallLong } from '../support/orders.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

const C = '/swx/customer';

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

  /** Stops 10 % away from the current bid, on the right sides of a long. */
  async function sensibleStops() {
    const first = await anonymous.call('previewOptions', ticket());
    return { stopLoss: percentOf(first.data.bid, 90n), takeProfit: percentOf(first.data.bid, 110n) };
  }

  /** The customer's preview with sensible stops, then an order at its quote. */
  async function openLong(session: CustomerApi, over: Partial<TicketBody> = {}) {
    const body = ticket({ ...(await sensibleStops()), ...over });
    const preview = await session.call('previewOptions', body);
    expect(preview.code).toBe(200);
    const opened = await session.call('openPosition', {
      ...body,
      quoteId: preview.data.quoteId,
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
    expect((await bob.call('getPosition', { id })).code).toBe(10028);
    expect((await bob.call('closeOptions', { id })).code).toBe(10028);
    expect((await bob.call('updateOptions', { id, stopLoss: '1.00', takeProfit: '999999.00' })).code).toBe(
      10028,
    );
    expect((await bob.call('listPositions')).data.total).toBe(0);
    expect((await anonymous.call('getPosition', { id })).code).toBe(401);
    expect((await alice.call('getPosition', { id })).data.status).toBe('open');
  });

  it('refuses unreasonable stops with a localized message naming each; what cannot open already at the preview', async () => {
    const preview = await alice.call('previewOptions', ticket());
    expect(preview.data.unreasonable).toEqual(['stopLoss', 'takeProfit']); // 1.00: beyond the stop-out, below the price
    const refused = await alice.call(
      'openPosition',
      { ...ticket(), quoteId: preview.data.quoteId, requestId: crypto.randomUUID() },
      { language: 'de' },
    );
    expect(refused.code).toBe(10026);
    expect(refused.data).toEqual([
      { path: 'stopLoss', issue: 'unreasonable' },
      { path: 'takeProfit', issue: 'unreasonable' },
    ]);
    expect((await alice.call('previewOptions', ticket({ leverage: 10 }))).code).toBe(10014);
    expect((await alice.call('previewOptions', ticket({ lots: '0' }))).code).toBe(10016);
    // An order needs a quote id (outside the contract: a raw request).
    const withoutQuote = await api(server.baseUrl, `${C}/order/buyOptions`, {
      method: 'POST',
      headers: { authorization: alice.token, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ticket(), requestId: crypto.randomUUID() }),
    });
    expect(withoutQuote.body.code).toBe(10026);
  });

  it("commits a quote only for its holder, in its book, as signed, before it expires; the live book's empty balance is 10011", async () => {
    const body = ticket(await sensibleStops());
    const order = (
      session: CustomerApi,
      quoteId: string,
      options: { book?: 'live'; language?: string } = {},
    ) => session.call('openPosition', { ...body, quoteId, requestId: crypto.randomUUID() }, options);
    const previewOf = (session: CustomerApi, options: { book?: 'live' } = {}) =>
      session.call('previewOptions', body, options);
    const positions = async (session: CustomerApi) => (await session.call('listPositions')).data.total;
    const before = await positions(alice);
    // Alice's quote: Bob gets nothing, nor does Alice with it in the live book; nor a quote asked without a session.
    const alices = await previewOf(alice);
    expect((await order(bob, alices.data.quoteId)).code).toBe(10028);
    expect((await order(alice, alices.data.quoteId, { book: 'live' })).code).toBe(10028);
    expect((await order(alice, (await previewOf(anonymous)).data.quoteId)).code).toBe(10028);
    // A figure changed in the quote, or its signature: refused as not the server's.
    const [keyId = '', payload = '', mac = ''] = alices.data.quoteId.split('.');
    const signed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { f: { feeMinor: string } };
    signed.f.feeMinor = '0';
    const forged = `${keyId}.${Buffer.from(JSON.stringify(signed)).toString('base64url')}.${mac}`;
    expect(await order(alice, forged)).toMatchObject({
      code: 10026,
      data: [{ path: 'quoteId', issue: 'invalid' }],
    });
    expect((await order(alice, `${keyId}.${payload}.${'A'.repeat(43)}`)).code).toBe(10026);
    // Once the server's clock is past the quote's last second: 10032, in the reader's language.
    await expect
      .poll(async () => (await previewOf(alice)).data.quoteTime, { timeout: 20_000, interval: 250 })
      .toBeGreaterThan(alices.data.expiresAt);
    const late = await order(alice, alices.data.quoteId, { language: 'de' });
    expect(late).toMatchObject({ code: 10032, msg: expect.stringContaining('Kurs') });
    // The live book holds nothing: a live quote of Alice's is refused for want of balance.
    const live = await previewOf(alice, { book: 'live' });
    expect([10011, 10032]).toContain((await order(alice, live.data.quoteId, { book: 'live' })).code);
    // Nothing of the above opened anything.
    expect(await positions(alice)).toBe(before);
    expect(await positions(bob)).toBe(0);
  });

  it('closes at the market on request, and lists it in the history with the reason', async () => {
    const { opened } = await openLong(alice);
    const closed = await alice.call('closeOptions', { id: opened.data.id });
    expect(closed.data).toMatchObject({ status: 'closed', closeReason: 'manual' });
    const history = await alice.call('listPositions', { status: 'closed' });
    expect(history.data.items.map((o) => o.id)).toContain(opened.data.id);
  });

  it('the feed reaches a take profit one tick away: the engine closes the position and a notice follows', async () => {
    // A long whose take profit is one tick above the bid and a short one tick below the ask: the
    // market moves one way or the other within seconds, and one of them reaches its target.
    const base = await bob.call('previewOptions', ticket());
    const stops = {
      long: { stopLoss: percentOf(base.data.bid, 80n), takeProfit: shift(base.data.bid, 1n) },
      short: { stopLoss: percentOf(base.data.ask, 120n), takeProfit: shift(base.data.ask, -1n) },
    };
    const ids: number[] = [];
    for (const direction of ['long', 'short'] as const) {
      const body = ticket({ direction, ...stops[direction] });
      const preview = await bob.call('previewOptions', body);
      if (preview.data.unreasonable.length > 0) continue; // the market already passed it
      const order = await bob.call('openPosition', {
        ...body,
        quoteId: preview.data.quoteId,
        requestId: crypto.randomUUID(),
      });
      if (order.code === 200) ids.push(order.data.id);
    }
    expect(ids.length).toBeGreaterThan(0);
    const closedOne = async () => {
      for (const id of ids) {
        const order = (await bob.call('getPosition', { id })).data;
        if (order.status === 'closed') return order;
      }
      return null;
    };
    await expect.poll(closedOne, { timeout: 90_000, interval: 1000 }).not.toBeNull();
    const closed = (await closedOne()) as Position;
    expect(closed.closeReason).toBe('take_profit');
    expect(Number(closed.profit)).toBeGreaterThan(-Number(closed.margin));
    const notices = await bob.call('getNoticeList');
    const orderNo = `SWX${String(closed.id).padStart(9, '0')}`;
    expect(notices.data.some((n) => n.noticeContent.includes(orderNo))).toBe(true);
  }, 120_000);
});
