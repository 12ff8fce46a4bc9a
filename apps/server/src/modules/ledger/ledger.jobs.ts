import { dailyKey, type Job } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from './ledger.service.ts';

export type ReconciliationReport = {
  accounts: { accountId: number; balance: string; postings: string; held: string; pending: string }[];
  unbalanced: { book: string; asset: string; total: string }[];
  negativeCustomers: number[];
  alertId: number | null;
};

/**
 * Recomputes every balance from its postings (and every held amount from pending holds), checks
 * that postings net to zero per book and asset and that no customer is below zero. Any difference
 * raises a staff alert (recorded in the audit log) and an error log line; nothing is "fixed"
 * automatically: a correction is a reversing entry made by a person.
 */
export async function reconcile(
  ledger: LedgerService,
  audit: AuditService,
  logger?: Logger,
): Promise<ReconciliationReport> {
  const accounts = await ledger.reconcile();
  const { unbalanced, negativeCustomers } = await ledger.invariants();
  const report: ReconciliationReport = {
    accounts: accounts.map((a) => ({
      accountId: a.accountId,
      balance: a.balance.toString(),
      postings: a.postings.toString(),
      held: a.held.toString(),
      pending: a.pending.toString(),
    })),
    unbalanced: unbalanced.map((u) => ({ ...u, total: u.total.toString() })),
    negativeCustomers,
    alertId: null,
  };
  if (accounts.length > 0 || unbalanced.length > 0 || negativeCustomers.length > 0) {
    report.alertId = await audit.alertStaff(
      'reconciliation',
      `ledger reconciliation found ${accounts.length} account(s) off, ${unbalanced.length} unbalanced asset(s), ${negativeCustomers.length} negative customer account(s)`,
      report,
    );
    logger?.error({ report }, 'ledger reconciliation found differences');
  } else {
    logger?.info('ledger reconciliation: every balance matches its postings');
  }
  return report;
}

export function reconciliationJob(ledger: LedgerService, audit: AuditService): Job {
  return {
    name: 'ledger.reconciliation',
    everyMs: 15 * 60_000,
    runKey: dailyKey,
    run: async ({ logger }) => {
      await reconcile(ledger, audit, logger);
    },
  };
}
