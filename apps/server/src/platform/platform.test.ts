import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from './bus.ts';
import { ConfigError, loadConfig } from './config.ts';
import { bookOf } from './http.ts';
import { createMailer, listOutbox } from './mail.ts';
import { createMemoryRateLimiter } from './ratelimit.ts';
import { FileStorage } from './storage.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'swx-unit-'));

describe('config', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.dataDir.endsWith('data')).toBe(true);
  });

  it('refuses a bad environment with every problem named', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      expect(String((error as Error).message)).toMatch(/PORT/);
      expect(String((error as Error).message)).toMatch(/DATABASE_URL/);
    }
  });
});

describe('the virtually header (spec §7)', () => {
  it('chooses the live book only for YES; NO and missing are demo', () => {
    expect(bookOf('YES')).toBe('live');
    expect(bookOf('NO')).toBe('demo');
    expect(bookOf(undefined)).toBe('demo');
    expect(bookOf('yes')).toBe('demo');
  });
});

describe('rate limiter (memory)', () => {
  it('allows the limit in a window, then refuses with the time to wait', async () => {
    const limiter = createMemoryRateLimiter();
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.hit('login:1.2.3.4', 3, 60_000));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]?.retryAfterMs).toBeGreaterThan(0);
    expect((await limiter.hit('login:5.6.7.8', 3, 60_000)).allowed).toBe(true);
  });

  it('stays bounded in memory under many keys', async () => {
    const limiter = createMemoryRateLimiter(100);
    for (let i = 0; i < 1000; i++) await limiter.hit(`k${i}`, 1, 60_000);
    // The newest key still counts; the map did not grow past its bound (no throw, no leak).
    expect((await limiter.hit('k999', 1, 60_000)).allowed).toBe(false);
  });
});

describe('file storage', () => {
  it('keeps bytes and type under a random key and refuses keys that could escape', async () => {
    const storage = new FileStorage(tempDir());
    const key = await storage.put(Buffer.from('hello'), 'image/png');
    expect(key).toMatch(/^[a-f0-9]{32}$/);
    const file = await storage.get(key);
    expect(file?.bytes.toString()).toBe('hello');
    expect(file?.contentType).toBe('image/png');
    for (const bad of ['../../etc/passwd', `${key}/../x`, '', 'A'.repeat(32)])
      expect(await storage.get(bad)).toBeNull();
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
  });
});

describe('mail outbox', () => {
  it('writes each message as an .eml file the operator can read', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ from: 'SWX <no-reply@swx.localhost>', dataDir });
    expect(mailer.kind).toBe('outbox');
    await mailer.send({ to: 'ana@example.com', subject: 'Your code', text: 'Code: 123456' });
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(dataDir, 'outbox', files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/To: ana@example.com/);
    expect(eml).toMatch(/Code: 123456/);
    expect((await listOutbox(dataDir))[0]?.eml).toBe(eml);
    mailer.close();
  });
});

describe('memory event bus', () => {
  it('delivers JSON copies to subscribers and survives a failing handler', async () => {
    const bus = createMemoryBus();
    const seen: unknown[] = [];
    bus.subscribe('market.quotes', () => {
      throw new Error('bad handler');
    });
    const off = bus.subscribe('market.quotes', (m) => seen.push(m));
    const message = { code: 'BTCUSDT', price: '1.0' };
    await bus.publish('market.quotes', message);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([message]);
    expect(seen[0]).not.toBe(message);
    off();
    await bus.publish('market.quotes', message);
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toHaveLength(1);
    await expect(bus.publish('Bad Topic', 1)).rejects.toThrow();
  });
});
