import {
  ASSET_SCALES,
  type Asset,
  Code,
  type CustomerDetail,
  type CustomerOverview,
  type CustomerSummary,
  formatMinor,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import { BOOKS, type LedgerService } from '../ledger/ledger.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';
import type { StaffService, StaffSession } from '../staff/staff.service.ts';
import { insertStatusChange, statusHistory } from './desk.repository.ts';

/**
 * The customers screen of the back office: search, one customer, lock and unlock with a reason.
 * Each action is audited with the staff member as actor; a lock, its record and its audit row are
 * written in one transaction, and the lock ends every session of the customer.
 */
export class DeskCustomers {
  private readonly db: Database;
  private readonly staff: StaffService;
  private readonly customers: CustomerDirectory;
  private readonly kyc: KycService;
  private readonly ledger: LedgerService;
  private readonly trading: PositionsService;

  constructor(deps: {
    db: Database;
    staff: StaffService;
    customers: CustomerDirectory;
    kyc: KycService;
    ledger: LedgerService;
    trading: PositionsService;
  }) {
    this.db = deps.db;
    this.staff = deps.staff;
    this.customers = deps.customers;
    this.kyc = deps.kyc;
    this.ledger = deps.ledger;
    this.trading = deps.trading;
  }

  /** 50 a page, newest first; `before` is the last id of the page before. */
  async search(session: StaffSession, q: string, before: number | null = null): Promise<CustomerSummary[]> {
    const rows = await this.customers.search(q, 50, before);
    await this.staff.record(session, 'customer.searched', 'customers', {
      q,
      before,
      results: rows.length,
    });
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

  /**
   * One customer on one page: the account and lock history, balances in both books, open
   * positions and the latest closed ones, the latest ledger entries, live sessions and the latest
   * KYC submission with its reviewer by name. Audited as one view.
   */
  async overview(session: StaffSession, userId: number): Promise<CustomerOverview> {
    const customer = await this.detail(userId);
    const balances: CustomerOverview['balances'] = [];
    const positions: CustomerOverview['positions'] = [];
    const transactions: CustomerOverview['transactions'] = [];
    for (const book of BOOKS) {
      for (const b of await this.ledger.balances(book, userId))
        balances.push({
          book,
          asset: b.asset,
          balance: formatMinor(b.balance, b.scale),
          held: formatMinor(b.held, b.scale),
          available: formatMinor(b.available, b.scale),
        });
      for (const status of ['open', 'closed'] as const) {
        const page = await this.trading.list(userId, book, {
          status,
          page: 1,
          size: status === 'open' ? 100 : 20,
        });
        for (const p of page.items)
          positions.push({
            id: p.id,
            orderNo: p.orderNo,
            book,
            code: p.code,
            direction: p.direction,
            lots: p.lots,
            leverage: p.leverage,
            openPrice: p.openPrice,
            closePrice: p.closePrice,
            margin: p.margin,
            profit: p.profit,
            status: p.status,
            openTime: p.openTime,
            closeTime: p.closeTime,
          });
      }
      for (const line of await this.ledger.entriesOf(book, userId, { limit: 30 }))
        transactions.push({
          entryId: line.entryId,
          book,
          kind: line.kind,
          asset: line.asset,
          amount: formatMinor(line.amount, ASSET_SCALES[line.asset as Asset] ?? 0),
          accountKind: line.accountKind,
          reference: line.reference,
          createdAt: line.createdAt,
        });
    }
    transactions.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.entryId - a.entryId);
    const review = await this.kyc.latestReviewOf(userId);
    const kyc = review
      ? {
          id: review.id,
          status: review.status,
          submittedAt: review.submittedAt,
          reviewedAt: review.reviewedAt,
          reviewer: await this.staff.refOfActor(review.reviewedBy),
          reason: review.reason,
        }
      : null;
    const sessions = await this.customers.sessions(userId);
    await this.staff.record(session, 'customer.viewed', `user:${userId}`, { page: 'overview' });
    return { customer, balances, positions, transactions, sessions, kyc };
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
