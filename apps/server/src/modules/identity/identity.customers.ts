import type { Database, Queryable } from '../../platform/db.ts';
import {
  type CustomerRow,
  countLiveSessions,
  findCustomer,
  languagesOf,
  searchCustomers,
  setCustomerStatus,
  userNamesOf,
} from './identity.customers.repository.ts';
import { maskIp, summariseUserAgent } from './identity.devices.ts';
import { listUserSessions } from './identity.repository.ts';
import { sessionCacheOf } from './identity.session-cache.ts';

export type { CustomerRow };

/**
 * The identity module's customer records as the back office sees them: search, one customer,
 * and lock/unlock. A locked customer cannot log in (10005) and has no session: locking deletes
 * every session and pending login challenge, and the session resolver ignores locked users.
 */
export class CustomerDirectory {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Newest first; `beforeId` continues after the last id of the page before (keyset). */
  search(text: string, limit = 50, beforeId: number | null = null): Promise<CustomerRow[]> {
    return searchCustomers(this.db, text.trim(), Math.min(Math.max(limit, 1), 200), beforeId);
  }

  /** A customer's live sessions for staff: device summarised, address masked, never the token. */
  async sessions(
    userId: number,
  ): Promise<
    { id: string; createdAt: string; lastSeenAt: string; browser: string; os: string; ip: string }[]
  > {
    return (await listUserSessions(this.db, userId)).map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      ...summariseUserAgent(row.userAgent),
      ip: maskIp(row.ip),
    }));
  }

  get(userId: number): Promise<CustomerRow | null> {
    return findCustomer(this.db, userId);
  }

  /** The languages of some customers by id, in one read. */
  async languagesOf(ids: number[]): Promise<Map<number, string>> {
    return ids.length === 0 ? new Map() : languagesOf(this.db, [...new Set(ids)]);
  }

  async namesOf(ids: number[]): Promise<Map<number, string>> {
    return ids.length === 0 ? new Map() : userNamesOf(this.db, [...new Set(ids)]);
  }

  liveSessions(userId: number): Promise<number> {
    return countLiveSessions(this.db, userId);
  }

  /**
   * Locks or unlocks a customer; `alongside` runs in the same transaction (the caller's record
   * and audit row), so the change and its record exist together or not at all. Returns false when
   * the customer is unknown or already in that state (nothing is written then).
   */
  async setLocked(
    userId: number,
    locked: boolean,
    alongside: (tx: Queryable) => Promise<void>,
  ): Promise<boolean> {
    const changed = await this.db.transaction(async (tx) => {
      if (!(await setCustomerStatus(tx, userId, locked ? 'locked' : 'active'))) return false;
      await alongside(tx);
      return true;
    });
    // Locking ended every session of the customer: no cached one may answer after this.
    if (changed && locked) await sessionCacheOf(this.db).ended(userId);
    return changed;
  }
}
