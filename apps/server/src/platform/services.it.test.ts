import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisBus } from './bus.ts';
import { createMailer } from './mail.ts';
import { createRedisRateLimiter } from './ratelimit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('Redis event bus', () => {
  it('delivers a message published on one node to subscribers on another', async () => {
    const prefix = `swx-test-${process.pid}-${Date.now()}:`;
    const nodeA = await createRedisBus(REDIS_URL, undefined, prefix);
    const nodeB = await createRedisBus(REDIS_URL, undefined, prefix);
    const received: unknown[] = [];
    nodeB.subscribe('market.quotes', (m) => received.push(m));
    await new Promise((r) => setTimeout(r, 100)); // the SUBSCRIBE reaches Redis
    await nodeA.publish('market.quotes', [{ code: 'EURUSD', price: '1.08', zdf: '0.001' }]);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual([[{ code: 'EURUSD', price: '1.08', zdf: '0.001' }]]);
    await nodeA.close();
    await nodeB.close();
  });
});

describe('Redis rate limiter', () => {
  const redis = new Redis(REDIS_URL);
  afterAll(() => redis.disconnect());

  it('counts hits from several nodes against one window', async () => {
    const prefix = `swx-test-rl-${process.pid}-${Date.now()}:`;
    const a = createRedisRateLimiter(redis, prefix);
    const b = createRedisRateLimiter(redis, prefix);
    const key = `login:${process.pid}`;
    const verdicts = [await a.hit(key, 2, 60_000), await b.hit(key, 2, 60_000), await a.hit(key, 2, 60_000)];
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false]);
  });
});

describe('mail over SMTP', () => {
  it('delivers to a real SMTP receiver', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let text = '';
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        stream.on('end', () => {
          received.push(text);
          done();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.server.address() as { port: number }).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'swx-smtp-'));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'SWX <no-reply@swx.localhost>',
      dataDir,
    });
    expect(mailer.kind).toBe('smtp');
    await mailer.send({ to: 'ana@example.com', subject: 'Hello', text: 'Your code is 654321' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/Your code is 654321/);
    mailer.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('keeps a message SMTP refused in outbox/failed and tells the caller', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'swx-smtp-'));
    // Nothing listens on port 1: the connection is refused.
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'SWX <no-reply@swx.localhost>',
      dataDir,
    });
    await expect(mailer.send({ to: 'ana@example.com', subject: 'Hello', text: 'kept' })).rejects.toThrow();
    expect(readdirSync(join(dataDir, 'outbox', 'failed'))).toHaveLength(1);
    mailer.close();
  });
});
