import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { type LedgerService, MARGIN } from '../ledger/ledger.service.ts';
import { reconcileSubLedger, type SubLedger } from '../products/reconciliation.ts';
import type { PositionsService } from './positions.service.ts';

export type MarginDifference = { book: string; userId: number; ledger: string; positions: string };

/** Every customer's margin account must hold exactly the margins of their open positions. */
export function marginSubLedger(trading: PositionsService): SubLedger {
  return {
    name: 'trading.margin',
    accountKind: MARGIN,
    asset: 'USDT',
    expected: async () =>
      (await trading.openMargins()).map((row) => ({
        book: row.book,
        ownerId: row.userId,
        amount: row.marginMinor,
      })),
    alertMessage: (count) =>
      `margin reconciliation: ${count} customer(s) whose margin account differs from their open positions`,
  };
}

/** The margin check now (as the daily job runs it); any difference raises a staff alert (audited). */
export async function reconcileMargins(
  trading: PositionsService,
  ledger: LedgerService,
  audit: AuditService,
  logger?: Logger,
): Promise<MarginDifference[]> {
  const differences = await reconcileSubLedger(marginSubLedger(trading), ledger, audit, logger);
  return differences.map((d) => ({
    book: d.book,
    userId: d.ownerId,
    ledger: d.ledger.toString(),
    positions: d.holdings.toString(),
  }));
}

/**
 * Every minute: pending orders past their expiry end `expired` (their holds voided, a notice sent),
 * fills a stopped node left claimed are completed, and holds whose release failed are voided.
 */
export function pendingOrdersJob(trading: PositionsService): Job {
  return {
    name: 'trading.pending',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async ({ logger }) => {
      const done = await trading.sweepPending();
      if (done.expired + done.completed + done.released > 0)
        logger.info(done, 'trading: pending orders swept');
    },
  };
}
