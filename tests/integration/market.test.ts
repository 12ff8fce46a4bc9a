import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerByApi, startServerWithInbox } from '../support/accounts.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

const C = '/swx/customer';
type Item = {
  id: number;
  code: string;
  type: number;
  appName: string;
  price: string;
  bid: string;
  ask: string;
  zdf: string;
  hundred: string[];
  logo: string;
};

describe('markets over HTTP and /message', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, inbox, stop } = await startServerWithInbox());
  });
  afterAll(() => stop());

  it('lists every tab with the promised counts: 28+ forex, 350+ crypto, 100+ stocks, 30+ ETF, 4 metals, 10+ futures', async () => {
    const minimum: Record<number, number> = { 1: 28, 2: 350, 3: 100, 5: 30, 6: 4, 7: 10 };
    for (const [type, least] of Object.entries(minimum)) {
      const r = await api(server.baseUrl, `${C}/index/listMarketByType?type=${type}`);
      const items = r.body.data as Item[];
      expect(items.length, `type ${type}`).toBeGreaterThanOrEqual(least);
      for (const item of items.slice(0, 5)) {
        expect(item.type).toBe(Number(type));
        expect(Number(item.bid)).toBeLessThan(Number(item.ask));
        expect(item.hundred).toHaveLength(100);
        expect(item.zdf).toMatch(/^-?\d+\.\d{6}$/);
      }
    }
    expect((await api(server.baseUrl, `${C}/index/listMarketByType?type=4`)).body.code).toBe(10026);
  });

  it('names instruments in the reader language where they differ, and draws logos locally', async () => {
    const en = (await api(server.baseUrl, `${C}/index/listMarketByType?type=2`)).body.data as Item[];
    const ja = (
      await api(server.baseUrl, `${C}/index/listMarketByType?type=2`, {
        headers: { 'accept-language': 'ja' },
      })
    ).body.data as Item[];
    const btcEn = en.find((i) => i.code === 'BTCUSDT');
    const btcJa = ja.find((i) => i.code === 'BTCUSDT');
    expect(btcEn?.appName).toBe('Bitcoin');
    expect(btcJa?.appName).not.toBe('Bitcoin');
    const logo = await fetch(`${server.baseUrl}${btcEn?.logo}`);
    expect(logo.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(await logo.text()).toContain('BTC');
    expect((await fetch(`${server.baseUrl}/logos/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  it('serves one instrument and candles of every period for any date of the past year', async () => {
    const [first] = (await api(server.baseUrl, `${C}/index/listMarketByType?type=2`)).body.data as Item[];
    const info = await api(server.baseUrl, `${C}/index/getMarketInfo/${first?.id}`);
    expect(info.body.data).toMatchObject({ id: first?.id, code: first?.code });
    expect((await api(server.baseUrl, `${C}/index/getMarketInfo/999999`)).body.code).toBe(10028);
    const yearAgo = new Date(Date.now() - 360 * 86_400_000).toISOString().slice(0, 10);
    for (const period of ['1m', '5m', '15m', '1h', '4h', '1d', '1w']) {
      const r = await api(
        server.baseUrl,
        `${C}/index/getKValueByCodeAndDate?code=BTCUSDT&period=${period}&date=${yearAgo}&limit=50`,
      );
      expect(r.body.code, period).toBe(200);
      expect((r.body.data as { candles: unknown[] }).candles, period).toHaveLength(50);
    }
    const tooOld = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await api(server.baseUrl, `${C}/index/getKValueByCodeAndDate?code=BTCUSDT&period=1d&date=${tooOld}`))
        .body.code,
    ).toBe(10026);
    expect(
      (await api(server.baseUrl, `${C}/index/getKValueByCodeAndDate?code=BTCUSDT&period=2h`)).body.code,
    ).toBe(10026);
  });

  it('pushes quote batches on /message every second, matching the list prices', async () => {
    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/message`);
    const batches: { code: string; price: string; zdf: string }[][] = [];
    socket.on('message', (data) => batches.push(JSON.parse(String(data))));
    await new Promise((r) => setTimeout(r, 2600));
    socket.close();
    expect(batches.length).toBeGreaterThanOrEqual(2);
    expect(batches.length).toBeLessThanOrEqual(4);
    const btc = batches.at(-1)?.find((q) => q.code === 'BTCUSDT');
    expect(btc?.price).toMatch(/^\d+\.\d{2}$/);
  });

  it('keeps a watchlist per user: persisted, and nobody else sees it', async () => {
    const register = async (email: string) => (await registerByApi(server, inbox, email)).token;
    const a = await register('watcher@example.com');
    const b = await register('other@example.com');
    const post = (token: string, path: string, body: unknown) =>
      api(server.baseUrl, `${C}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify(body),
      });
    const [eth] = (
      (await api(server.baseUrl, `${C}/index/listMarketByType?type=2`)).body.data as Item[]
    ).filter((i) => i.code === 'ETHUSDT');
    expect((await post(a, '/user/addWatchlist', { id: eth?.id })).body.code).toBe(200);
    expect((await post(a, '/user/addWatchlist', { id: eth?.id })).body.code).toBe(200); // twice is once
    expect((await post(a, '/user/addWatchlist', { id: 999_999 })).body.code).toBe(10028);
    const mine = (await api(server.baseUrl, `${C}/user/listWatchlist`, { headers: { authorization: a } }))
      .body.data as Item[];
    expect(mine.map((i) => i.code)).toEqual(['ETHUSDT']);
    expect(
      (await api(server.baseUrl, `${C}/user/listWatchlist`, { headers: { authorization: b } })).body.data,
    ).toEqual([]);
    // B removing A's item changes nothing of A's.
    await post(b, '/user/removeWatchlist', { id: eth?.id });
    expect(
      (
        (await api(server.baseUrl, `${C}/user/listWatchlist`, { headers: { authorization: a } })).body
          .data as Item[]
      ).length,
    ).toBe(1);
    expect((await api(server.baseUrl, `${C}/user/listWatchlist`)).status).toBe(401);
  });
});
