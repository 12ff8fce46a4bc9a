import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS, type Database, isDatabaseUnavailable, openPostgres } from './db.ts';
import { JobRunner, minuteKey } from './jobs.ts';
import type { Logger } from './logger.ts';
import { createRedisRateLimiter } from './ratelimit.ts';

/** A listener that takes connections and never answers: a database that hangs. */
let silent: Server;
const held: Socket[] = [];
beforeAll(async () => {
  silent = createServer((socket) => held.push(socket));
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((done) => silent.close(done));
});

describe('a database that cannot be reached', () => {
  it('is told from a wrong query: refused, restarting, cut, or no connection in time', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006'])
      expect(isDatabaseUnavailable(coded(code))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // "database … is not currently accepting connections"
    expect(isDatabaseUnavailable(Object.assign(coded('55000'), { severity: 'FATAL' }))).toBe(true);
    for (const code of ['23505', '40001', '42P01']) expect(isDatabaseUnavailable(coded(code))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });

  it(
    'that hangs gives up after the connect timeout, not never',
    async () => {
      const { port } = silent.address() as { port: number };
      const started = performance.now();
      const error = await openPostgres(`postgres://postgres@127.0.0.1:${port}/none`).catch((e: unknown) => e);
      const waited = performance.now() - started;
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
      expect(waited).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);
    },
    CONNECT_TIMEOUT_MS + 10_000,
  );
});

describe('rate limits while Redis cannot be reached', () => {
  it('count on this node alone, and still refuse past the limit', async () => {
    // Never connected: what a node sees while Redis is down.
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true });
    const limiter = createRedisRateLimiter(redis, 'test:');
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await limiter.hit('api:1.2.3.4', 2, 60_000));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false]);
    redis.disconnect();
  });
});

describe('jobs while the database cannot be reached', () => {
  it('log the failed claim and try again at the next tick; the process goes on', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const db = { query: () => Promise.reject(refused) } as unknown as Database;
    const warn = vi.fn();
    const runner = new JobRunner(db, 'node-test', { warn } as unknown as Logger);
    const run = vi.fn(async () => undefined);
    runner.register({ name: 'every-10ms', everyMs: 10, runKey: minuteKey, run });
    runner.start();
    await new Promise((done) => setTimeout(done, 100));
    await runner.stop();
    expect(warn.mock.calls.length).toBeGreaterThan(2);
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ err: refused, job: 'every-10ms' });
    expect(run).not.toHaveBeenCalled();
  });
});
