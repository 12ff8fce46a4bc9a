import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { type BinanceReplay, recordedFrames, startBinanceReplay } from '../support/binance.ts';
import { useServer } from '../support/integration.ts';
import { smallLong } from '../support/orders.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

/**
 * Price alerts over HTTP on a server priced by a local stand-in for the exchange's stream (the
 * Binance source), so the test moves the price: set, list, another customer's cancel refused, and
 * an alert fired by the feed's tick once the top of book crosses its level — told as a notice and
 * by mail, once.
 */
describe('price alerts over HTTP, fired by the feed', { timeout: 240_000 }, () => {
  let replay: BinanceReplay;
  let server: RunningServer;
  let inbox: Inbox;
  let alice: CustomerApi;
  let bob: CustomerApi;
  let update = 90_000_000_000;

  let bid = 90_000;
  let keepAlive: NodeJS.Timeout | undefined;
  /** The BTCUSDT top of book from now on (resent every 250 ms, so the price stays fresh). */
  const book = (next: number) => {
    bid = next;
    replay.send({
      stream: 'btcusdt@bookTicker',
      data: { u: ++update, s: 'BTCUSDT', b: bid.toFixed(8), B: '1', a: (bid + 0.01).toFixed(8), A: '1' },
    });
  };

  useServer(
    {
      env: async () => {
        replay = await startBinanceReplay(recordedFrames());
        keepAlive = setInterval(() => book(bid), 250);
        return { MARKET_SOURCE: 'binance', MARKET_SOURCE_URL: replay.url, MARKET_STALE_SECONDS: '5' };
      },
      after: async () => {
        clearInterval(keepAlive);
        await replay.close();
      },
    },
    (s) => ({ server, inbox } = s),
  );
  beforeAll(async () => {
    alice = customerApi(server, await registerByApi(server, inbox, 'alice.alerts@example.com'), {
      language: 'en',
    });
    bob = customerApi(server, await registerByApi(server, inbox, 'bob.alerts@example.com'), {
      language: 'en',
    });
    book(90_000);
    // Until the order ticket (priced at the second's tick, as an alert is set) has the stand-in's
    // book, and no longer the recording's (expect.poll is for tests; this is the setup's wait).
    const btcId = (await alice.ok('listMarketByType', { type: 2 })).find((i) => i.code === 'BTCUSDT')?.id;
    const ticketBid = async () => (await alice.call('previewOptions', smallLong(btcId ?? 0))).data?.bid;
    for (let tries = 0; (await ticketBid()) !== '90000.00'; tries++) {
      if (tries > 120) throw new Error('BTCUSDT was not priced from the stand-in');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  it('sets and lists alerts, and refuses the cancel of another customer', async () => {
    const set = await alice.ok('createPriceAlert', {
      code: 'BTCUSDT',
      kind: 'below',
      level: '1000.00',
      repeat: false,
    });
    expect(set).toMatchObject({
      code: 'BTCUSDT',
      kind: 'below',
      level: '1000.00',
      state: 'active',
      fired: 0,
    });
    const list = await alice.ok('listPriceAlerts');
    expect(list.items.map((a) => a.id)).toContain(set.id);
    expect(list.limit).toBe(100);
    expect((await bob.ok('listPriceAlerts')).items).toEqual([]);
    expect((await bob.call('cancelPriceAlert', { id: set.id })).code).toBe(10028);
    expect((await alice.ok('listPriceAlerts')).items.find((a) => a.id === set.id)?.state).toBe('active');
    expect((await alice.call('cancelPriceAlert', { id: set.id })).code).toBe(200);
    expect((await alice.ok('listPriceAlerts')).items.find((a) => a.id === set.id)?.state).toBe('cancelled');
    // Bad input is 10026; push is off on this server (no VAPID keys).
    expect(
      (await alice.call('createPriceAlert', { code: 'BTCUSDT', kind: 'above', repeat: false })).code,
    ).toBe(10026);
    expect(await alice.ok('getPushKey')).toEqual({ publicKey: null });
    const http = await alice.call('subscribePush', {
      endpoint: 'http://push.example/x',
      keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
    });
    expect(http.code).toBe(10026);
  });

  const alert = async (id: number) => (await alice.ok('listPriceAlerts')).items.find((a) => a.id === id);

  it('fires alerts by the feed once per crossing (a one-off once): a notice and a mail each time', async () => {
    const once = await alice.ok('createPriceAlert', {
      code: 'BTCUSDT',
      kind: 'above',
      level: '90100.00',
      repeat: false,
    });
    const again = await alice.ok('createPriceAlert', {
      code: 'BTCUSDT',
      kind: 'above',
      level: '90100.00',
      repeat: true,
    });
    book(90_150);
    await expect
      .poll(() => alert(once.id), { timeout: 30_000 })
      .toMatchObject({
        state: 'fired',
        fired: 1,
        firedPrice: '90150.00',
      });
    await expect
      .poll(() => alert(again.id), { timeout: 30_000 })
      .toMatchObject({ state: 'active', fired: 1 });
    const notices = await alice.ok('getNoticeList');
    expect(notices.filter((n) => n.noticeContent.includes('BTCUSDT rose to 90150.00'))).toHaveLength(2);
    const mails = () =>
      inbox.messages.filter(
        (m) => m.to === 'alice.alerts@example.com' && m.raw.includes('Price alert: BTCUSDT'),
      );
    await expect.poll(() => mails().length, { timeout: 15_000 }).toBe(2);
    // Back under the level: a one-off `below` alert firing shows a tick was there (the same tick
    // re-arms the repeating alert); then across the level again.
    const down = await alice.ok('createPriceAlert', {
      code: 'BTCUSDT',
      kind: 'below',
      level: '90050.00',
      repeat: false,
    });
    book(90_000);
    await expect
      .poll(() => alert(down.id), { timeout: 30_000 })
      .toMatchObject({ state: 'fired', firedPrice: '90000.01' });
    book(90_200);
    await expect
      .poll(() => alert(again.id), { timeout: 30_000 })
      .toMatchObject({ fired: 2, firedPrice: '90200.00' });
    expect(await alert(once.id)).toMatchObject({ state: 'fired', fired: 1 });
    await expect.poll(() => mails().length, { timeout: 15_000 }).toBe(4);
    await alice.ok('cancelPriceAlert', { id: again.id });
  });
});
