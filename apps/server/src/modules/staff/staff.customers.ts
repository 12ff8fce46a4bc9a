import { Code, type CustomerDetail, type CustomerSummary } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import { insertStatusChange, statusHistory } from './staff.repository.ts';
import type { StaffService, StaffSession } from './staff.service.ts';

/**
 * The customers screen of the back office: search, one customer, lock and unlock with a reason.
 * Each action is audited with the staff member as actor; a lock, its record and its audit row are
 * written in one transaction, and the lock ends every session of the customer.
 */
export class StaffCustomers {
  private readonly db: Database;
  private readonly staff: StaffService;
  private readonly customers: CustomerDirectory;
  private readonly kyc: KycService;

  constructor(deps: { db: Database; staff: StaffService; customers: CustomerDirectory; kyc: KycService }) {
    this.db = deps.db;
    this.staff = deps.staff;
    this.customers = deps.customers;
    this.kyc = deps.kyc;
  }

  async search(session: StaffSession, q: string): Promise<CustomerSummary[]> {
    const rows = await this.customers.search(q, 50);
    await this.staff.record(session, 'customer.searched', 'customers', { q, results: rows.length });
    const states = await this.kyc.statesOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      userName: r.userName,
      email: r.email,
      status: r.status,
      createdAt: r.createdAt,
      kycState: states.get(r.id) ?? 'none',
    }));
  }

  private async detail(userId: number): Promise<CustomerDetail> {
    const customer = await this.customers.get(userId);
    if (!customer) throw new ApiError(Code.NOT_FOUND);
    const credit = await this.kyc.creditScore(userId);
    return {
      id: customer.id,
      userName: customer.userName,
      email: customer.email,
      status: customer.status,
      language: customer.language,
      createdAt: customer.createdAt,
      liveSessions: await this.customers.liveSessions(userId),
      kycState: await this.kyc.stateOf(userId),
      creditScore: credit.score,
      history: await statusHistory(this.db, userId),
    };
  }

  async view(session: StaffSession, userId: number): Promise<CustomerDetail> {
    const detail = await this.detail(userId);
    await this.staff.record(session, 'customer.viewed', `user:${userId}`, {});
    return detail;
  }

  /** Locks (ends every session, refuses login) or unlocks; already in that state: 10008. */
  async setLocked(
    session: StaffSession,
    userId: number,
    locked: boolean,
    reason: string,
  ): Promise<CustomerDetail> {
    const action = locked ? 'lock' : 'unlock';
    const changed = await this.customers.setLocked(userId, locked, async (tx) => {
      await insertStatusChange(tx, { userId, staffId: session.staffId, action, reason });
      await this.staff.record(
        session,
        locked ? 'customer.locked' : 'customer.unlocked',
        `user:${userId}`,
        { reason },
        tx,
      );
    });
    if (!changed) {
      if (!(await this.customers.get(userId))) throw new ApiError(Code.NOT_FOUND);
      throw new ApiError(Code.WRONG_USER_STATUS);
    }
    return this.detail(userId);
  }
}
