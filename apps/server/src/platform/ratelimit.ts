import { Code } from '@swx/contract';
import type { Redis } from 'ioredis';
import { ApiError } from './http.ts';

/**
 * Fixed-window counters: `limit` hits per `windowMs` per key. In memory on one node; in Redis when
 * configured, so every node counts against the same window.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
}

export function createMemoryRateLimiter(maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, limit, windowMs) {
      const now = Date.now();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= now) {
        if (windows.size >= maxKeys) {
          for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
          // Still full of live windows: forget the oldest rather than grow without bound.
          if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        }
        entry = { count: 0, resetAt: now + windowMs };
        windows.set(key, entry);
      }
      entry.count += 1;
      return { allowed: entry.count <= limit, retryAfterMs: Math.max(0, entry.resetAt - now) };
    },
  };
}

/** Counts in Redis, shared by every node; while Redis is unreachable, each node counts alone in memory. */
export function createRedisRateLimiter(redis: Redis, prefix = 'swx:rl:'): RateLimiter {
  const alone = createMemoryRateLimiter();
  return {
    async hit(key, limit, windowMs) {
      if (redis.status !== 'ready') return alone.hit(key, limit, windowMs);
      const slot = Math.floor(Date.now() / windowMs);
      const redisKey = `${prefix}${key}:${slot}`;
      let results: [Error | null, unknown][] | null;
      try {
        results = await redis.multi().incr(redisKey).pexpire(redisKey, windowMs).exec();
      } catch {
        return alone.hit(key, limit, windowMs);
      }
      const count = Number(results?.[0]?.[1] ?? 0);
      const retryAfterMs = (slot + 1) * windowMs - Date.now();
      return { allowed: count <= limit, retryAfterMs: Math.max(0, retryAfterMs) };
    },
  };
}

/** Counts a hit of `rule` under `key`; over it: 10027 with the seconds to wait. */
export async function limit(
  ctx: { readonly limiter: RateLimiter },
  key: string,
  rule: { limit: number; windowMs: number },
): Promise<void> {
  const verdict = await ctx.limiter.hit(key, rule.limit, rule.windowMs);
  if (!verdict.allowed)
    throw new ApiError(Code.TOO_MANY_REQUESTS, {
      retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
    });
}
