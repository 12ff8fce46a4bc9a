import { PERIODS } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { api, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

const C = '/swx/customer';

describe('markets over HTTP and /message', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let anonymous: CustomerApi;
  useServer({}, (s) => ({ server, inbox, anonymous } = s));

  it('lists every tab with the promised counts: 28+ forex, 350+ crypto, 100+ stocks, 30+ ETF, 4 metals, 10+ futures', async () => {
    const minimum: Record<number, number> = { 1: 28, 2: 350, 3: 100, 5: 30, 6: 4, 7: 10 };
    for (const [type, least] of Object.entries(minimum)) {
      const r = await anonymous.call('listMarketByType', { type });
      const items = r.data;
      expect(items.length, `type ${type}`).toBeGreaterThanOrEqual(least);
      for (const item of items.slice(0, 5)) {
        expect(item.type).toBe(Number(type));
        expect(Number(item.bid)).toBeLessThan(Number(item.ask));
        expect(item.hundred).toHaveLength(100);
        expect(item.zdf).toMatch(/^-?\d+\.\d{6}$/);
      }
    }
    expect((await anonymous.call('listMarketByType', { type: 4 })).code).toBe(10026);
  });

  it('gives only the first items of a list with the optional limit, the whole list without it', async () => {
    const whole = await anonymous.ok('listMarketByType', { type: 2 });
    const first = await anonymous.ok('listMarketByType', { type: 2, limit: 6 });
    expect(first.map((item) => item.code)).toEqual(whole.slice(0, 6).map((item) => item.code));
    expect((await anonymous.call('listMarketByType', { type: 2, limit: 0 })).code).toBe(10026);
  });

  it('names instruments in the reader language where they differ, and draws logos locally', async () => {
    const en = await anonymous.ok('listMarketByType', { type: 2 });
    const ja = await anonymous.ok('listMarketByType', { type: 2 }, { language: 'ja' });
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
    const [first] = await anonymous.ok('listMarketByType', { type: 2 });
    const info = await anonymous.call('getMarketInfo', { id: first?.id ?? 0 });
    expect(info.data).toMatchObject({ id: first?.id, code: first?.code });
    expect((await anonymous.call('getMarketInfo', { id: 999999 })).code).toBe(10028);
    const yearAgo = new Date(Date.now() - 360 * 86_400_000).toISOString().slice(0, 10);
    for (const period of PERIODS) {
      const r = await anonymous.call('getKValueByCodeAndDate', {
        code: 'BTCUSDT',
        period,
        date: yearAgo,
        limit: 50,
      });
      expect(r.code, period).toBe(200);
      expect(r.data.candles, period).toHaveLength(50);
    }
    const tooOld = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await anonymous.call('getKValueByCodeAndDate', { code: 'BTCUSDT', period: '1d', date: tooOld })).code,
    ).toBe(10026);
    // A period the contract does not have: a raw request.
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
    const register = async (email: string) => customerApi(server, await registerByApi(server, inbox, email));
    const a = await register('watcher@example.com');
    const b = await register('watch.other@example.com');
    const [eth] = (await anonymous.ok('listMarketByType', { type: 2 })).filter((i) => i.code === 'ETHUSDT');
    const ethId = eth?.id ?? 0;
    expect((await a.call('addWatchlist', { id: ethId })).code).toBe(200);
    expect((await a.call('addWatchlist', { id: ethId })).code).toBe(200); // twice is once
    expect((await a.call('addWatchlist', { id: 999_999 })).code).toBe(10028);
    const mine = (await a.call('listWatchlist')).data;
    expect(mine.map((i) => i.code)).toEqual(['ETHUSDT']);
    expect((await b.call('listWatchlist')).data).toEqual([]);
    // B removing A's item changes nothing of A's.
    await b.call('removeWatchlist', { id: ethId });
    expect((await a.call('listWatchlist')).data.length).toBe(1);
    expect((await anonymous.call('listWatchlist')).status).toBe(401);
  });
});
