import { dailyKey, type Job } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { type LedgerService, MARGIN } from '../ledger/ledger.service.ts';
import type { TradingService } from './trading.service.ts';

export type MarginDifference = { book: string; userId: number; ledger: string; positions: string };

/**
 * Every customer's margin account must hold exactly the margins of their open positions. Any
 * difference raises a staff alert (audited); nothing is changed automatically.
 */
export async function reconcileMargins(
  trading: TradingService,
  ledger: LedgerService,
  audit: AuditService,
  logger?: Logger,
): Promise<MarginDifference[]> {
  const expected = new Map<string, bigint>();
  for (const row of await trading.openMargins()) expected.set(`${row.book}:${row.userId}`, row.marginMinor);
  const actual = new Map<string, bigint>();
  for (const account of await ledger.nonZeroBalances(MARGIN, 'USDT'))
    actual.set(`${account.book}:${account.ownerId}`, account.balance);
  const differences: MarginDifference[] = [];
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const e = expected.get(key) ?? 0n;
    const a = actual.get(key) ?? 0n;
    if (e === a) continue;
    const [book = '', user = '0'] = key.split(':');
    differences.push({ book, userId: Number(user), ledger: a.toString(), positions: e.toString() });
  }
  if (differences.length > 0) {
    await audit.alertStaff(
      'reconciliation',
      `margin reconciliation: ${differences.length} customer(s) whose margin account differs from their open positions`,
      { differences },
    );
    logger?.error({ differences }, 'margin reconciliation found differences');
  } else logger?.info('margin reconciliation: every margin account matches its open positions');
  return differences;
}

export function marginReconciliationJob(
  trading: TradingService,
  ledger: LedgerService,
  audit: AuditService,
): Job {
  return {
    name: 'trading.margin-reconciliation',
    everyMs: 15 * 60_000,
    runKey: dailyKey,
    run: async ({ logger }) => {
      await reconcileMargins(trading, ledger, audit, logger);
    },
  };
}
