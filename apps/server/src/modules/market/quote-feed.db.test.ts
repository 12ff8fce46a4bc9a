import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import { MarketService } from './market.service.ts';
import { QuoteFeed } from './quote-feed.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

describe('the quote feed’s leadership while Redis is not there', () => {
  it('does not lead while its first connection is being made, and leads alone once Redis is found unreachable', async () => {
    // Nothing listens on port 1: the connection is refused, as when Redis is down.
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    redis.on('error', () => undefined);
    const feed = new QuoteFeed({
      market: new MarketService(t.db, () => Date.parse('2027-01-04T12:00:00Z')),
      bus: createMemoryBus(),
      redis,
      nodeId: 'feed-test',
    });
    let led = 0;
    feed.onLeaderTick(async () => {
      led += 1;
    });
    try {
      // At a node's start another node may hold the lease: publishing now would send every tick twice.
      expect(redis.status).toBe('connecting');
      await feed.tick();
      expect(led).toBe(0);
      for (let i = 0; i < 100 && redis.status !== 'reconnecting'; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(redis.status).toBe('reconnecting');
      await feed.tick();
      expect(led).toBe(1);
      // Between two attempts to reconnect, it keeps leading alone.
      for (let i = 0; i < 100 && redis.status !== 'connecting'; i++)
        await new Promise((r) => setTimeout(r, 5));
      await feed.tick();
      expect(led).toBe(2);
    } finally {
      redis.disconnect();
    }
  });
});
