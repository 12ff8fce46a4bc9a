import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Instrument } from '../../apps/server/src/modules/market/feed.ts';
import { BinanceSource, binanceSymbol } from '../../apps/server/src/modules/market/source.binance.ts';
import { customerApi } from '../support/api.ts';
import {
  type BinanceFrame,
  type BinanceReplay,
  recordedFrames,
  startBinanceReplay,
} from '../support/binance.ts';
import { smallLong } from '../support/orders.ts';
import { ROOT, type RunningServer, startServer } from '../support/server.ts';

const FRAMES = recordedFrames();
/** The last recorded top of book of a symbol, and its mid. */
function lastBook(symbol: string): { bid: number; ask: number; mid: number } {
  const frame = FRAMES.filter((f) => f.stream === `${symbol.toLowerCase()}@bookTicker`).at(
    -1,
  ) as BinanceFrame;
  const bid = Number(frame.data.b);
  const ask = Number(frame.data.a);
  return { bid, ask, mid: (bid + ask) / 2 };
}
function lastOpen24h(symbol: string): number {
  const frame = FRAMES.filter((f) => f.stream === `${symbol.toLowerCase()}@miniTicker`).at(
    -1,
  ) as BinanceFrame;
  return Number(frame.data.o);
}

const instrument = (id: number, code: string, cls: Instrument['class'], decimals: number): Instrument => ({
  id,
  code,
  class: cls,
  ref: 1,
  decimals,
});
const BTC = instrument(1, 'BTCUSDT', 'crypto', 2);
const ETH = instrument(2, 'ETHUSDT', 'crypto', 2);
const PEPE = instrument(3, 'PEPEUSDT', 'crypto', 8);
const XMR = instrument(4, 'XMRUSDT', 'crypto', 2); // mapped, but the recording has none of it
const AAPL = instrument(5, 'AAPL', 'stocks', 2); // not on the exchange

describe('the Binance market source, replaying recorded frames', () => {
  let replay: BinanceReplay;
  let source: BinanceSource | null = null;
  const T0 = 1_795_000_000;
  let clockMs = T0 * 1000 + 250;
  const STALE = 5;

  beforeAll(async () => {
    replay = await startBinanceReplay(FRAMES);
  });
  afterEach(() => source?.stop());
  afterAll(() => replay.close());

  const started = async () => {
    clockMs = T0 * 1000 + 250;
    source = new BinanceSource({
      url: replay.url,
      staleSeconds: STALE,
      now: () => clockMs,
      backoff: { initialMs: 20, maxMs: 200 },
    });
    source.start([BTC, ETH, PEPE, XMR, AAPL]);
    const s = source;
    // The replay sends the recorded frames of the streams asked for: those of BTC, ETH and PEPE.
    const wanted = FRAMES.filter((f) => /^(btc|eth|pepe|xmr)usdt@/.test(f.stream)).length;
    await expect.poll(() => s.stats.applied + s.stats.ignored, { timeout: 15_000 }).toBe(wanted);
    return s;
  };

  it('maps catalogue instruments to exchange symbols and asks only for those', async () => {
    expect(binanceSymbol(BTC)).toBe('BTCUSDT');
    expect(binanceSymbol(AAPL)).toBeNull();
    expect(binanceSymbol(instrument(9, 'EURUSD', 'forex', 5))).toBeNull();
    const s = await started();
    const streams = replay.connections.at(-1) ?? [];
    expect(streams).toContain('btcusdt@bookTicker');
    expect(streams).toContain('btcusdt@miniTicker');
    expect(streams).toContain('xmrusdt@bookTicker');
    expect(streams.some((name) => name.startsWith('aapl'))).toBe(false);
    expect(s.prices(BTC)).toBe(true);
    expect(s.prices(AAPL)).toBe(false);
    // SOL and USDC are in the recording but were not asked for: never sent, never applied.
    expect(s.stats.ignored).toBe(0);
  });

  it('prices second t from the last top of book received before t began, at the exchange figures', async () => {
    const s = await started();
    // Everything arrived during second T0: second T0 itself has no price yet.
    expect(s.quote(BTC, T0)).toBeNull();
    expect(s.quote(BTC, T0 + 1)).toEqual(lastBook('BTCUSDT'));
    expect(s.quote(ETH, T0 + 1)).toEqual(lastBook('ETHUSDT'));
    expect(s.quote(PEPE, T0 + 1)).toEqual(lastBook('PEPEUSDT'));
    expect(s.isOpen(BTC, T0 + 1)).toBe(true);
    const { mid } = lastBook('BTCUSDT');
    expect(s.change24h(BTC, T0 + 1)).toBeCloseTo((mid - lastOpen24h('BTCUSDT')) / lastOpen24h('BTCUSDT'), 12);
    // Mapped but never priced, and not on the exchange: not tradable.
    expect(s.quote(XMR, T0 + 1)).toBeNull();
    expect(s.isOpen(XMR, T0 + 1)).toBe(false);
    expect(s.lastQuote(XMR, T0 + 1)).toBeNull();
    expect(s.isOpen(AAPL, T0 + 1)).toBe(false);

    // A new top of book during second T0+1 changes second T0+2, never the second already priced.
    clockMs = (T0 + 1) * 1000 + 400;
    const applied = s.stats.applied;
    replay.send({
      stream: 'btcusdt@bookTicker',
      data: { u: 73650412200, s: 'BTCUSDT', b: '91350.00000000', B: '0.2', a: '91350.01000000', A: '0.3' },
    });
    await expect.poll(() => s.stats.applied, { timeout: 10_000 }).toBe(applied + 1);
    expect(s.quote(BTC, T0 + 1)).toEqual(lastBook('BTCUSDT'));
    expect(s.quote(BTC, T0 + 2)).toEqual({ bid: 91350, ask: 91350.01, mid: (91350 + 91350.01) / 2 });
    const candles = s.candles(BTC, '1m', T0 + 2, 10);
    expect(candles).toHaveLength(1);
    expect(candles[0]?.close).toBe(((91350 + 91350.01) / 2).toFixed(2));
  });

  it('marks a price stale after the configured seconds without an update: not tradable, still shown', async () => {
    const s = await started();
    expect(s.quote(ETH, T0 + STALE)).toEqual(lastBook('ETHUSDT'));
    expect(s.quote(ETH, T0 + STALE + 1)).toBeNull();
    expect(s.isOpen(ETH, T0 + STALE + 1)).toBe(false);
    // The last price is still there to show (marked closed), never to trade.
    expect(s.lastQuote(ETH, T0 + STALE + 1)).toEqual(lastBook('ETHUSDT'));
  });

  it('ignores frames that are not valid prices of a symbol it asked for', async () => {
    const s = await started();
    const before = { ...s.stats };
    clockMs = (T0 + 1) * 1000 + 10;
    const bad: string[] = [
      'not json',
      JSON.stringify({
        stream: 'btcusdt@aggTrade',
        data: {
          e: 'aggTrade',
          E: 1,
          s: 'BTCUSDT',
          a: 1,
          p: '91400.00',
          q: '0.1',
          f: 1,
          l: 1,
          T: 1,
          m: true,
          M: true,
        },
      }),
      JSON.stringify({
        stream: 'btcusdt@bookTicker',
        data: { u: 1, s: 'BTCUSDT', b: '91400.00', B: '1', a: '91399.00', A: '1' }, // crossed book
      }),
      JSON.stringify({
        stream: 'btcusdt@bookTicker',
        data: { u: 2, s: 'BTCUSDT', b: '-1', B: '1', a: '2', A: '1' },
      }),
      JSON.stringify({
        stream: 'btcusdt@bookTicker',
        data: { u: 3, s: 'BTCUSDT', b: '1e5', B: '1', a: '2e5', A: '1' },
      }),
      JSON.stringify({
        stream: 'ethusdt@bookTicker',
        data: { u: 4, s: 'BTCUSDT', b: '1', B: '1', a: '2', A: '1' },
      }),
    ];
    for (const text of bad) replay.send(text);
    await expect.poll(() => s.stats.ignored, { timeout: 10_000 }).toBe(before.ignored + bad.length);
    expect(s.stats.applied).toBe(before.applied);
    expect(s.quote(BTC, T0 + 2)).toEqual(lastBook('BTCUSDT'));
  });

  it('reconnects after the exchange drops the connection, and prices again', async () => {
    const s = await started();
    const connections = replay.connections.length;
    clockMs = (T0 + 3) * 1000;
    replay.dropClients();
    // A new connection replays the recording (as a fresh subscription gets the current book).
    await expect.poll(() => replay.connections.length, { timeout: 15_000 }).toBe(connections + 1);
    await expect.poll(() => s.stats.connections, { timeout: 15_000 }).toBe(2);
    await expect.poll(() => s.quote(BTC, T0 + 4), { timeout: 15_000 }).toEqual(lastBook('BTCUSDT'));
  });
});

// Server starts are slow on a loaded machine: generous hook and test limits (no timing is asserted).
const SLOW = 240_000;

describe('a server priced by the Binance source', { timeout: SLOW }, () => {
  let replay: BinanceReplay;
  let server: RunningServer;

  beforeAll(async () => {
    replay = await startBinanceReplay(FRAMES, { keepAliveMs: 250 });
    server = await startServer(
      {
        MARKET_SOURCE: 'binance',
        MARKET_SOURCE_URL: replay.url,
        MARKET_STALE_SECONDS: '2',
      },
      { startTimeoutMs: SLOW / 2 },
    );
  }, SLOW);
  afterAll(async () => {
    await server?.stop();
    await replay?.close();
  });

  const crypto = () => customerApi(server).ok('listMarketByType', { type: 2 });
  /** The order ticket's figures for a small BTC long (previewOptions needs no session). */
  const preview = async () => {
    const btc = (await crypto()).find((i) => i.code === 'BTCUSDT');
    const { code, data } = await customerApi(server).call('previewOptions', smallLong(btc?.id ?? 0));
    return { code, data };
  };

  it('lists and publishes the exchange prices, only for instruments the exchange prices', async () => {
    const btc = lastBook('BTCUSDT');
    await expect
      .poll(async () => (await crypto()).find((i) => i.code === 'BTCUSDT'), { timeout: 30_000 })
      .toMatchObject({
        price: btc.mid.toFixed(2),
        bid: btc.bid.toFixed(2),
        ask: btc.ask.toFixed(2),
        open: true,
      });
    const listed = await crypto();
    // Only what the recording prices is listed; no simulated price anywhere.
    expect(listed.map((i) => i.code).sort()).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'PEPEUSDT',
      'SOLUSDT',
      'USDCUSDT',
    ]);
    expect(await customerApi(server).ok('listMarketByType', { type: 3 })).toEqual([]);
    // The order ticket is priced from the exchange's top of book: a long would open at its ask.
    // (The ticket's quote is the feed's tick, once a second: on a busy machine it may still hold the
    // book before the last one when the list already shows the last.)
    await expect.poll(preview, { timeout: 30_000 }).toMatchObject({
      code: 200,
      data: { bid: btc.bid.toFixed(2), ask: btc.ask.toFixed(2) },
    });
    const ready = await fetch(`${server.baseUrl}/readyz`).then((r) => r.json());
    expect(ready).toMatchObject({ sandbox: true, marketSource: 'binance' });

    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/message`);
    const seen: { code: string; price: string }[] = [];
    socket.on('message', (data) =>
      seen.push(...(JSON.parse(String(data)) as { code: string; price: string }[])),
    );
    try {
      await expect
        .poll(() => seen.find((q) => q.code === 'PEPEUSDT')?.price, { timeout: 15_000 })
        .toBe(lastBook('PEPEUSDT').mid.toFixed(8));
      expect(
        seen.every((q) => ['BTCUSDT', 'ETHUSDT', 'PEPEUSDT', 'SOLUSDT', 'USDCUSDT'].includes(q.code)),
      ).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('stops trading an instrument when the exchange goes quiet, and resumes after reconnecting', async () => {
    const port = replay.port;
    await replay.close();
    await expect
      .poll(async () => (await crypto()).find((i) => i.code === 'BTCUSDT')?.open, { timeout: 30_000 })
      .toBe(false);
    // Stale: shown closed, and no order is priced from the old price (10015 not available for trading).
    expect((await preview()).code).toBe(10015);
    replay = await startBinanceReplay(FRAMES, { port, keepAliveMs: 250 });
    await expect
      .poll(async () => (await crypto()).find((i) => i.code === 'BTCUSDT')?.open, { timeout: 60_000 })
      .toBe(true);
    expect((await preview()).code).toBe(200);
  });
});

describe('production', { timeout: SLOW }, () => {
  const boot = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(ROOT, 'apps', 'server', 'src', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: '/nonexistent/never-opened', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('refuses to start with the simulator pricing real money (SWX_MODE=production or a real chain)', () => {
    const productions: Record<string, string>[] = [
      { SWX_MODE: 'production' },
      { EVM_RPC_URL: 'https://rpc.example.org' },
    ];
    for (const env of productions) {
      const run = boot(env);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('MARKET_SOURCE: this is a production run');
      expect(run.stderr).toContain('the simulated price feed must not price it');
    }
    const explicit = boot({ SWX_MODE: 'production', MARKET_SOURCE: 'simulated' });
    expect(explicit.status).toBe(2);
  });
});
