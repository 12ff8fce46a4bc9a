import { expect } from 'vitest';
import type { AuditService } from '../../apps/server/src/modules/audit/audit.service.ts';
import type { LedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts';
import type { Queryable } from '../../apps/server/src/platform/db.ts';
import { type RunningServer, runCli } from './server.ts';

/** The services of a database test: the ledger, the audit log and the database they write. */
export type LedgerParts = {
  db: Queryable;
  ledger: LedgerService;
  audit: AuditService;
  /** Sub-ledger checks of the test's products (e.g. reconcileMargins): each answers what is off. */
  subLedgers?: readonly (() => Promise<readonly unknown[]>)[];
};

/**
 * The ledger is sound: every entry's postings net to zero per asset (and so every book and asset),
 * no customer balance or available amount is below zero, every stored balance and held amount
 * equals its postings and pending holds (`reconcile`), every declared sub-ledger reconciles, and
 * the audit chain verifies. Run it after every test that moves money:
 *
 *   afterEach(() => expectLedgerSound(ctx));            // a database test
 *   afterEach(() => expectLedgerSound(server), 60_000); // a server: the operator commands
 *
 * On a running server it runs the operator's commands in the server (`reconcile`, which checks
 * balances, holds, sums per book and asset and negative customers, and `audit:verify`).
 */
export async function expectLedgerSound(target: LedgerParts | RunningServer): Promise<void> {
  if ('dataDir' in target) {
    const reconcile = runCli(target, 'reconcile');
    expect(reconcile.stdout + reconcile.stderr, 'reconcile').toContain('every balance matches its postings');
    expect(reconcile.status, 'reconcile').toBe(0);
    const verify = runCli(target, 'audit:verify');
    expect(verify.stdout + verify.stderr, 'audit:verify').toMatch(/^Audit chain intact: \d+ rows\./m);
    expect(verify.status, 'audit:verify').toBe(0);
    return;
  }
  const unbalancedEntries = await target.db.query<{ entry_id: string; asset: string; total: string }>(
    'SELECT entry_id, asset, sum(amount) AS total FROM ledger_postings GROUP BY entry_id, asset HAVING sum(amount) <> 0',
  );
  expect(unbalancedEntries, 'entries whose postings do not net to zero').toEqual([]);
  const invariants = await target.ledger.invariants();
  expect(invariants.unbalanced, 'books and assets whose postings do not net to zero').toEqual([]);
  expect(invariants.negativeCustomers, 'customer accounts below zero').toEqual([]);
  expect(await target.ledger.reconcile(), 'balances that differ from their postings').toEqual([]);
  for (const check of target.subLedgers ?? [])
    expect(await check(), 'a sub-ledger that does not reconcile').toEqual([]);
  expect(await target.audit.verify(), 'the audit chain').toMatchObject({ ok: true });
}
