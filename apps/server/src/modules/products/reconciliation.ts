import type { Asset } from '@swx/contract';
import { dailyKey, type Job } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { Book, LedgerService } from '../ledger/ledger.service.ts';

/**
 * Sub-ledger reconciliation: a product declares "each customer's ledger account of this kind must
 * equal the sum of their holdings" (trading: the margin account equals the margins of the open
 * positions) and gets a daily check that alerts staff (audited) on any difference. Nothing is
 * changed automatically: a correction is a reversing entry made by a person.
 */
export type SubLedger = {
  /** Names the check in logs and alerts, and its job (`<name>-reconciliation`), e.g. `trading.margin`. */
  name: string;
  /** The customer account kind that carries the holdings' money. */
  accountKind: string;
  asset: Asset;
  /** What each (book, owner) should hold: the sum of their holdings. Owners left out should hold nothing. */
  expected: () => Promise<readonly { book: Book; ownerId: number; amount: bigint }[]>;
  /** The alert's text for `count` owners whose account differs. */
  alertMessage: (count: number) => string;
};

export type SubLedgerDifference = { book: Book; ownerId: number; ledger: bigint; holdings: bigint };

/** Compares every (book, owner) of the sub-ledger with the ledger; alerts staff once per check that finds differences. */
export async function reconcileSubLedger(
  subLedger: SubLedger,
  ledger: LedgerService,
  audit: AuditService,
  logger?: Logger,
): Promise<SubLedgerDifference[]> {
  type Owner = { book: Book; ownerId: number; holdings: bigint; ledger: bigint };
  const owners = new Map<string, Owner>();
  const owner = (book: Book, ownerId: number): Owner => {
    const key = `${book}:${ownerId}`;
    let found = owners.get(key);
    if (!found) {
      found = { book, ownerId, holdings: 0n, ledger: 0n };
      owners.set(key, found);
    }
    return found;
  };
  for (const row of await subLedger.expected()) owner(row.book, row.ownerId).holdings += row.amount;
  for (const account of await ledger.nonZeroBalances(subLedger.accountKind, subLedger.asset))
    owner(account.book, account.ownerId).ledger += account.balance;
  const differences: SubLedgerDifference[] = [...owners.values()].filter((o) => o.holdings !== o.ledger);
  if (differences.length > 0) {
    await audit.alertStaff('reconciliation', subLedger.alertMessage(differences.length), {
      subLedger: subLedger.name,
      accountKind: subLedger.accountKind,
      asset: subLedger.asset,
      differences,
    });
    logger?.error(
      {
        subLedger: subLedger.name,
        differences: differences.map((d) => ({
          ...d,
          ledger: String(d.ledger),
          holdings: String(d.holdings),
        })),
      },
      'sub-ledger reconciliation found differences',
    );
  } else
    logger?.info(
      { subLedger: subLedger.name },
      'sub-ledger reconciliation: every account matches its holdings',
    );
  return differences;
}

/** The daily job of one sub-ledger check (one run a UTC day across nodes). */
export function subLedgerReconciliationJob(
  subLedger: SubLedger,
  ledger: LedgerService,
  audit: AuditService,
): Job {
  return {
    name: `${subLedger.name}-reconciliation`,
    everyMs: 15 * 60_000,
    runKey: dailyKey,
    run: async ({ logger }) => {
      await reconcileSubLedger(subLedger, ledger, audit, logger);
    },
  };
}
