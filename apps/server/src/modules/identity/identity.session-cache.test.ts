import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../platform/bus.ts';
import { SESSION_CACHE_MS, SessionCache } from './identity.session-cache.ts';

const alice = { userId: 7, userName: 'alice', sessionId: 'a1' };
const bob = { userId: 8, userName: 'bob', sessionId: 'b1' };

describe('the session cache', () => {
  it('answers a session read lately, until it is old, ends or expires', () => {
    let now = 1_000_000;
    const cache = new SessionCache(() => now);
    cache.put('hash-a', alice, cache.epoch, 3_600_000);
    cache.put('hash-b', bob, cache.epoch, 500);
    expect(cache.get('hash-a')).toEqual(alice);
    now += 600; // bob's session expired meanwhile: never answered past its expiry
    expect(cache.get('hash-b')).toBeNull();
    now += SESSION_CACHE_MS; // read again from the database after SESSION_CACHE_MS
    expect(cache.get('hash-a')).toBeNull();
  });

  it('never keeps a read that began before sessions ended, and forgets the customer at once', async () => {
    const cache = new SessionCache();
    cache.put('hash-a', alice, cache.epoch, 3_600_000);
    const epoch = cache.epoch; // a request starts reading bob's session…
    await cache.ended(alice.userId); // …while alice's sessions end (logout, revoke, lock)
    expect(cache.get('hash-a')).toBeNull();
    cache.put('hash-b', bob, epoch, 3_600_000); // the read that began before is not kept
    expect(cache.get('hash-b')).toBeNull();
    cache.put('hash-b', bob, cache.epoch, 3_600_000);
    expect(cache.get('hash-b')).toEqual(bob);
  });

  it('forgets sessions another node ended, as the bus tells it', async () => {
    const bus = createMemoryBus();
    const here = new SessionCache();
    const there = new SessionCache();
    here.connect(bus);
    there.connect(bus);
    there.put('hash-a', alice, there.epoch, 3_600_000);
    await here.ended(alice.userId);
    await new Promise((resolve) => setImmediate(resolve));
    expect(there.get('hash-a')).toBeNull();
  });
});
