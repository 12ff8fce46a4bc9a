import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import type { CustomerSession } from '../../platform/http.ts';

/** How long a session read from the database answers requests without reading it again. */
export const SESSION_CACHE_MS = 2_000;
/** Sessions kept at most; beyond, the oldest are forgotten (they are read again when used). */
const MAX_ENTRIES = 100_000;
/** Bus topic: a customer's sessions ended (logout, revoked, password replaced, locked) on some node. */
export const SESSIONS_ENDED_TOPIC = 'identity.sessions.ended';

type Cached = { session: CustomerSession; validUntil: number };

/**
 * The sessions this process resolved in the last SESSION_CACHE_MS, by token hash, so the requests
 * of a busy customer (an order, a quote, a list) do not each read the session row (issue 19: it
 * was most of the server's queries). It stays correct:
 *  - whatever ends sessions in this process (logout, revoking one, a replaced password, locking
 *    the customer) forgets the customer's sessions here once its change has committed, before it
 *    answers; a read that was in flight meanwhile is not kept (the epoch below), so the very next
 *    request reads the database and is refused;
 *  - other nodes hear of it on the bus (SESSIONS_ENDED_TOPIC) and forget it too; were a message
 *    lost, an entry still lives at most SESSION_CACHE_MS;
 *  - an entry never outlives its session's expiry.
 * One cache per database handle (`sessionCacheOf`), so every part of the identity module working
 * on the same database shares it.
 */
export class SessionCache {
  private readonly entries = new Map<string, Cached>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Bumped by every end of sessions: a read that began before it is not kept. */
  private epochValue = 0;
  private bus: EventBus | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  get epoch(): number {
    return this.epochValue;
  }

  /** A session read from the database lately (never one whose end this process has heard of). */
  get(tokenHash: string): CustomerSession | null {
    const cached = this.entries.get(tokenHash);
    if (!cached) return null;
    if (cached.validUntil > this.now()) return cached.session;
    this.drop(tokenHash, cached.session.userId);
    return null;
  }

  /** Keeps a session just read (at `epoch`), unless sessions ended since that read began. */
  put(tokenHash: string, session: CustomerSession, epoch: number, expiresInMs: number): void {
    if (epoch !== this.epochValue || expiresInMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].session.userId);
    }
    this.entries.set(tokenHash, {
      session,
      validUntil: this.now() + Math.min(SESSION_CACHE_MS, expiresInMs),
    });
    let tokens = this.byUser.get(session.userId);
    if (!tokens) {
      tokens = new Set();
      this.byUser.set(session.userId, tokens);
    }
    tokens.add(tokenHash);
  }

  /** Some or all of a customer's sessions ended (committed): forget them here and on every node. */
  async ended(userId: number): Promise<void> {
    this.forget(userId);
    await this.bus?.publish(SESSIONS_ENDED_TOPIC, { userId });
  }

  /** Listens to the other nodes' ends of sessions (the server's bus). */
  connect(bus: EventBus): void {
    this.unsubscribe?.();
    this.bus = bus;
    this.unsubscribe = bus.subscribe(SESSIONS_ENDED_TOPIC, (message) => {
      const userId = (message as { userId?: unknown }).userId;
      if (typeof userId === 'number') this.forget(userId);
    });
  }

  private forget(userId: number): void {
    this.epochValue += 1;
    for (const tokenHash of this.byUser.get(userId) ?? []) this.entries.delete(tokenHash);
    this.byUser.delete(userId);
  }

  private drop(tokenHash: string, userId: number): void {
    this.entries.delete(tokenHash);
    const tokens = this.byUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byUser.delete(userId);
  }
}

const caches = new WeakMap<Database, SessionCache>();

/** The session cache of a database handle (made on first use). */
export function sessionCacheOf(db: Database): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SessionCache();
    caches.set(db, cache);
  }
  return cache;
}
