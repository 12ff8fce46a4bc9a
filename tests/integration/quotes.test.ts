import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningServer, startServer } from '../support/server.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function connect(baseUrl: string): Promise<{ socket: WebSocket; messages: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/message`, { perMessageDeflate: false });
    const messages: unknown[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    socket.on('open', () => resolve({ socket, messages }));
    socket.on('error', reject);
  });
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('/message across two server nodes sharing Redis', () => {
  const servers: RunningServer[] = [];
  const redis = new Redis(REDIS_URL);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    redis.disconnect();
  });

  it('pushes the same quote batches to the clients of both nodes, deflate off', async () => {
    servers.push(
      await startServer({ REDIS_URL, NODE_ID: 'node-a', FEED: 'off' }),
      await startServer({ REDIS_URL, NODE_ID: 'node-b', FEED: 'off' }),
    );
    const [a, b] = await Promise.all(servers.map((s) => connect(s.baseUrl)));
    expect(a?.socket.extensions).toBe('');
    // Wait until both nodes' subscriptions reach Redis, then publish as the market feed will.
    const subscribers = async () =>
      Number(((await redis.pubsub('NUMSUB', 'swx:market.quotes')) as [string, number])[1]);
    for (let i = 0; i < 100 && (await subscribers()) < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await subscribers()).toBeGreaterThanOrEqual(2);
    const batch = [
      { code: 'EURUSD', price: '1.08412', zdf: '0.0012' },
      { code: 'BTCUSDT', price: '91234.50', zdf: '-0.0210' },
    ];
    await redis.publish('swx:market.quotes', JSON.stringify(batch));
    await until(() => (a?.messages.length ?? 0) > 0 && (b?.messages.length ?? 0) > 0);
    expect(a?.messages).toEqual([batch]);
    expect(b?.messages).toEqual([batch]);
    // A client message is ignored, not echoed.
    a?.socket.send('hello');
    await new Promise((r) => setTimeout(r, 100));
    expect(a?.messages).toHaveLength(1);
    a?.socket.close();
    b?.socket.close();
  });

  it('sends a subscribed client only what it asked for, on either node; a silent client gets the whole list', async () => {
    servers.push(
      await startServer({ REDIS_URL, NODE_ID: 'sub-a', FEED: 'off' }),
      await startServer({ REDIS_URL, NODE_ID: 'sub-b', FEED: 'off' }),
    );
    const [nodeA, nodeB] = servers.slice(-2);
    if (!nodeA || !nodeB) throw new Error('two nodes expected');
    const one = await connect(nodeA.baseUrl); // watches one instrument
    const forex = await connect(nodeB.baseUrl); // watches a class (1: forex) and one stock
    const silent = await connect(nodeB.baseUrl);
    one.socket.send(JSON.stringify({ codes: ['BTCUSDT'] }));
    forex.socket.send(JSON.stringify({ types: [1], codes: ['AAPL'] }));
    const batch = [
      { code: 'EURUSD', price: '1.08412', zdf: '0.0012' },
      { code: 'BTCUSDT', price: '91234.50', zdf: '-0.0210' },
      { code: 'AAPL', price: '231.40', zdf: '0.0050' },
      { code: 'XAUUSD', price: '2650.10', zdf: '0.0001' },
      { code: 'GBPUSD', price: '1.27010', zdf: '-0.0003' },
    ];
    const last = (c: { messages: unknown[] }) => c.messages[c.messages.length - 1];
    // Publish as the feed does until both subscriptions have reached their nodes and the silent
    // client has had a batch (its delivery may come after the others' on a busy machine).
    await until(() => {
      void redis.publish('swx:market.quotes', JSON.stringify(batch));
      return (
        JSON.stringify(last(one)) === JSON.stringify([batch[1]]) &&
        (last(forex) as unknown[])?.length === 3 &&
        silent.messages.length > 0
      );
    }, 10_000);
    expect(last(forex)).toEqual([batch[0], batch[2], batch[4]]);
    expect(silent.messages.length).toBeGreaterThan(0);
    for (const message of silent.messages) expect(message).toEqual(batch);
    // `{}` asks for the whole list again; a malformed subscription changes nothing.
    one.socket.send(JSON.stringify({}));
    forex.socket.send(JSON.stringify({ codes: ['not a code'] }));
    await until(() => {
      void redis.publish('swx:market.quotes', JSON.stringify(batch));
      return JSON.stringify(last(one)) === JSON.stringify(batch);
    }, 10_000);
    expect(last(forex)).toEqual([batch[0], batch[2], batch[4]]);
    for (const client of [one, forex, silent]) client.socket.close();
  });

  it('with the built-in feed on both nodes, one leader publishes: each tick reaches every client once', async () => {
    await redis.del('swx:market:feed-leader');
    const nodes = [
      await startServer({ REDIS_URL, NODE_ID: 'feed-a' }),
      await startServer({ REDIS_URL, NODE_ID: 'feed-b' }),
    ];
    servers.push(...nodes);
    const [a, b] = await Promise.all(nodes.map((s) => connect(s.baseUrl)));
    await new Promise((r) => setTimeout(r, 3500));
    a?.socket.close();
    b?.socket.close();
    const seenA = (a?.messages ?? []).map((m) => JSON.stringify(m));
    const seenB = (b?.messages ?? []).map((m) => JSON.stringify(m));
    expect(seenA.length).toBeGreaterThanOrEqual(2);
    expect(seenA.length).toBeLessThanOrEqual(4); // about one batch a second, not one per node
    // The batches both clients received in common are identical, in the same order.
    const common = seenA.filter((m) => seenB.includes(m));
    expect(common.length).toBeGreaterThanOrEqual(Math.min(seenA.length, seenB.length) - 1);
    expect(new Set(seenA).size).toBe(seenA.length);
  });
});
