import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session, startServerWithInbox } from '../support/accounts.ts';
import { smallLong } from '../support/orders.ts';
import { api, type RunningServer } from '../support/server.ts';

const C = '/swx/customer';
type Envelope<T> = { code: number; msg: string; data: T };
type Figures = {
  quoteId: string;
  expiresAt: number;
  quoteTime: number;
  price: string;
  bid: string;
  ask: string;
  margin: string;
  fee: string;
  liquidationPrice: string;
  unreasonable: string[];
};
type Order = {
  id: number;
  status: string;
  closeReason: string | null;
  openPrice: string;
  closePrice: string | null;
  margin: string;
  fee: string;
  profit: string;
};

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
  let stop: () => Promise<void>;
  let alice: Session;
  let bob: Session;
  let btcId: number;

  const call = async <T>(path: string, session: Session | null, body?: unknown, language = 'en') => {
    const headers: Record<string, string> = { 'accept-language': language };
    if (session) headers.authorization = session.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await api(server.baseUrl, C + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.body as Envelope<T>;
  };

  const ticket = (over: Record<string, unknown> = {}) => ({ ...smallLong(btcId), ...over });

  /** Stops 10 % away from the current bid, on the right sides of a long. */
  async function sensibleStops() {
    const first = await call<Figures>('/order/previewOptions', null, ticket());
    return { stopLoss: percentOf(first.data.bid, 90n), takeProfit: percentOf(first.data.bid, 110n) };
  }

  /** The customer's preview with sensible stops, then an order at its quote. */
  async function openLong(session: Session, over: Record<string, unknown> = {}) {
    const body = ticket({ ...(await sensibleStops()), ...over });
    const preview = await call<Figures>('/order/previewOptions', session, body);
    expect(preview.code).toBe(200);
    const opened = await call<Order>('/order/buyOptions', session, {
      ...body,
      quoteId: preview.data.quoteId,
      requestId: crypto.randomUUID(),
    });
    return { preview, opened };
  }

  beforeAll(async () => {
    let inbox: Parameters<typeof registerByApi>[1];
    ({ server, inbox, stop } = await startServerWithInbox());
    alice = await registerByApi(server, inbox, 'alice.trader@example.com');
    bob = await registerByApi(server, inbox, 'bob.trader@example.com');
    const crypto = await call<{ id: number; code: string }[]>('/index/listMarketByType?type=2', null);
    btcId = crypto.data.find((i) => i.code === 'BTCUSDT')?.id as number;
  });
  afterAll(() => stop());

  it('states the terms of an instrument before anyone trades: lot, leverage capped at 2 for crypto, fee under 0.3 %', async () => {
    const terms = await call<Record<string, unknown>>(`/order/getTradingTerms/${btcId}`, null);
    expect(terms.data).toMatchObject({
      code: 'BTCUSDT',
      lotSize: '1',
      leverages: [1, 2],
      maxLeverage: 2,
      feeRate: '0.001',
    });
    const eurusd = await call<{ id: number; code: string }[]>('/index/listMarketByType?type=1', null);
    const id = eurusd.data.find((i) => i.code === 'EURUSD')?.id;
    expect((await call<Record<string, unknown>>(`/order/getTradingTerms/${id}`, null)).data).toMatchObject({
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
    const again = await call<Figures>('/order/previewOptions', null, {
      ...ticket({ stopLoss: shift(preview.data.bid, -1000n), takeProfit: shift(preview.data.bid, 1000n) }),
    });
    expect(again.code).toBe(200);
    const balances = await call<{ balances: { asset: string; held: string }[] }>('/user/getBalances', alice);
    const held = balances.data.balances.find((b) => b.asset === 'USDT')?.held;
    expect(Number(held)).toBeGreaterThanOrEqual(Number(opened.data.margin));
  });

  it("another customer's position is unreachable: get, close and change stops all answer not found", async () => {
    const { opened } = await openLong(alice);
    const id = opened.data.id;
    expect((await call(`/order/getOptionsOrderById/${id}`, bob)).code).toBe(10028);
    expect((await call('/order/closeOptions', bob, { id })).code).toBe(10028);
    expect(
      (await call('/order/updateOptions', bob, { id, stopLoss: '1.00', takeProfit: '999999.00' })).code,
    ).toBe(10028);
    expect((await call<{ total: number }>('/order/listOptionsOrder', bob)).data.total).toBe(0);
    expect((await call(`/order/getOptionsOrderById/${id}`, null)).code).toBe(401);
    expect((await call<Order>(`/order/getOptionsOrderById/${id}`, alice)).data.status).toBe('open');
  });

  it('refuses unreasonable stops with a localized message naming each; what cannot open already at the preview', async () => {
    const preview = await call<Figures>('/order/previewOptions', alice, ticket());
    expect(preview.data.unreasonable).toEqual(['stopLoss', 'takeProfit']); // 1.00: beyond the stop-out, below the price
    const refused = await call<{ path: string; issue: string }[]>(
      '/order/buyOptions',
      alice,
      { ...ticket(), quoteId: preview.data.quoteId, requestId: crypto.randomUUID() },
      'de',
    );
    expect(refused.code).toBe(10026);
    expect(refused.data).toEqual([
      { path: 'stopLoss', issue: 'unreasonable' },
      { path: 'takeProfit', issue: 'unreasonable' },
    ]);
    expect((await call('/order/previewOptions', alice, ticket({ leverage: 10 }))).code).toBe(10014);
    expect((await call('/order/previewOptions', alice, ticket({ lots: '0' }))).code).toBe(10016);
    // An order needs a quote id.
    expect(
      (await call('/order/buyOptions', alice, { ...ticket(), requestId: crypto.randomUUID() })).code,
    ).toBe(10026);
  });

  it("commits a quote only for its holder, in its book, as signed, before it expires; the live book's empty balance is 10011", async () => {
    const body = ticket(await sensibleStops());
    const order = (session: Session, quoteId: string, headers: Record<string, string> = {}) =>
      api(server.baseUrl, `${C}/order/buyOptions`, {
        method: 'POST',
        headers: { authorization: session.token, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ ...body, quoteId, requestId: crypto.randomUUID() }),
      }).then((r) => r.body as Envelope<unknown>);
    const previewOf = async (session: Session | null, headers: Record<string, string> = {}) =>
      (
        await api(server.baseUrl, `${C}/order/previewOptions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(session ? { authorization: session.token } : {}),
            ...headers,
          },
          body: JSON.stringify(body),
        })
      ).body as Envelope<Figures>;
    const positions = async (session: Session) =>
      (await call<{ total: number }>('/order/listOptionsOrder', session)).data.total;
    const before = await positions(alice);
    // Alice's quote: Bob gets nothing, nor does Alice with it in the live book; nor a quote asked without a session.
    const alices = await previewOf(alice);
    expect((await order(bob, alices.data.quoteId)).code).toBe(10028);
    expect((await order(alice, alices.data.quoteId, { virtually: 'YES' })).code).toBe(10028);
    expect((await order(alice, (await previewOf(null)).data.quoteId)).code).toBe(10028);
    // A figure changed in the quote, or its signature: refused as not the server's.
    const [payload = '', mac = ''] = alices.data.quoteId.split('.');
    const signed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { f: { feeMinor: string } };
    signed.f.feeMinor = '0';
    const forged = `${Buffer.from(JSON.stringify(signed)).toString('base64url')}.${mac}`;
    expect(await order(alice, forged)).toMatchObject({
      code: 10026,
      data: [{ path: 'quoteId', issue: 'invalid' }],
    });
    expect((await order(alice, `${payload}.${'A'.repeat(43)}`)).code).toBe(10026);
    // Once the server's clock is past the quote's last second: 10032, in the reader's language.
    await expect
      .poll(async () => (await previewOf(alice)).data.quoteTime, { timeout: 20_000, interval: 250 })
      .toBeGreaterThan(alices.data.expiresAt);
    const late = await api(server.baseUrl, `${C}/order/buyOptions`, {
      method: 'POST',
      headers: { authorization: alice.token, 'content-type': 'application/json', 'accept-language': 'de' },
      body: JSON.stringify({ ...body, quoteId: alices.data.quoteId, requestId: crypto.randomUUID() }),
    });
    expect(late.body).toMatchObject({ code: 10032, msg: expect.stringContaining('Kurs') });
    // The live book holds nothing: a live quote of Alice's is refused for want of balance.
    const live = await previewOf(alice, { virtually: 'YES' });
    expect([10011, 10032]).toContain((await order(alice, live.data.quoteId, { virtually: 'YES' })).code);
    // Nothing of the above opened anything.
    expect(await positions(alice)).toBe(before);
    expect(await positions(bob)).toBe(0);
  });

  it('closes at the market on request, and lists it in the history with the reason', async () => {
    const { opened } = await openLong(alice);
    const closed = await call<Order>('/order/closeOptions', alice, { id: opened.data.id });
    expect(closed.data).toMatchObject({ status: 'closed', closeReason: 'manual' });
    const history = await call<{ items: Order[] }>('/order/listOptionsOrder?status=closed', alice);
    expect(history.data.items.map((o) => o.id)).toContain(opened.data.id);
  });

  it('the feed reaches a take profit one tick away: the engine closes the position and a notice follows', async () => {
    // A long whose take profit is one tick above the bid and a short one tick below the ask: the
    // market moves one way or the other within seconds, and one of them reaches its target.
    const base = await call<Figures>('/order/previewOptions', bob, ticket());
    const stops = {
      long: { stopLoss: percentOf(base.data.bid, 80n), takeProfit: shift(base.data.bid, 1n) },
      short: { stopLoss: percentOf(base.data.ask, 120n), takeProfit: shift(base.data.ask, -1n) },
    };
    const ids: number[] = [];
    for (const direction of ['long', 'short'] as const) {
      const body = ticket({ direction, ...stops[direction] });
      const preview = await call<Figures>('/order/previewOptions', bob, body);
      if (preview.data.unreasonable.length > 0) continue; // the market already passed it
      const order = await call<Order>('/order/buyOptions', bob, {
        ...body,
        quoteId: preview.data.quoteId,
        requestId: crypto.randomUUID(),
      });
      if (order.code === 200) ids.push(order.data.id);
    }
    expect(ids.length).toBeGreaterThan(0);
    const closedOne = async () => {
      for (const id of ids) {
        const order = (await call<Order>(`/order/getOptionsOrderById/${id}`, bob)).data;
        if (order.status === 'closed') return order;
      }
      return null;
    };
    await expect.poll(closedOne, { timeout: 90_000, interval: 1000 }).not.toBeNull();
    const closed = (await closedOne()) as Order;
    expect(closed.closeReason).toBe('take_profit');
    expect(Number(closed.profit)).toBeGreaterThan(-Number(closed.margin));
    const notices = await call<{ noticeContent: string }[]>('/user/getNoticeList', bob);
    const orderNo = `SWX${String(closed.id).padStart(9, '0')}`;
    expect(notices.data.some((n) => n.noticeContent.includes(orderNo))).toBe(true);
  }, 120_000);
});
