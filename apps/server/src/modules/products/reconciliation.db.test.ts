import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../../../../tests/support/db.ts';
import { JobRunner } from '../../platform/jobs.ts';
import { openSavingsFixture, type SavingsFixture } from './products.testing.ts';
import { reconcileSubLedger, type SubLedger, subLedgerReconciliationJob } from './reconciliation.ts';

let f: SavingsFixture;

beforeAll(async () => {
  f = await openSavingsFixture();
}, 120_000);
afterAll(() => f.close());
afterEach(() => f.expectSound(), 120_000);

/** Sub-ledger reconciliation on the tests' savings product (products.testing.ts). */
describe(`sub-ledger reconciliation on ${TEST_DB}`, () => {
  // A product whose principal sits in each owner's `savings` account: the account must equal the
  // sum of the owner's holdings.
  const principal: SubLedger = {
    name: 'test.savings-principal',
    accountKind: 'savings',
    asset: 'USDT',
    expected: async () =>
      (
        await f.db.query<{ owner_id: string; total: string }>(
          "SELECT owner_id, sum(principal_minor) AS total FROM test_savings WHERE book = 'live' GROUP BY owner_id",
        )
      ).map((r) => ({ book: 'live' as const, ownerId: Number(r.owner_id), amount: BigInt(r.total) })),
    alertMessage: (count) => `savings reconciliation: ${count} owner(s) whose savings account differs`,
  };

  it('an account equal to its holdings passes; a stray posting is named and alerted once a day', async () => {
    const rows = await principal.expected();
    for (const row of rows)
      await f.ledger.transfer({
        book: 'live',
        kind: 'transfer',
        idempotencyKey: `principal:${row.ownerId}`,
        actor: 'test',
        postings: [
          { accountId: f.clearing, amount: -row.amount },
          { accountId: await f.ledger.accountId('live', row.ownerId, 'USDT', 'savings'), amount: row.amount },
        ],
      });
    expect(await reconcileSubLedger(principal, f.ledger, f.audit)).toEqual([]);

    const owner = f.owners[7] as number;
    const stray = await f.ledger.transfer({
      book: 'live',
      kind: 'transfer',
      idempotencyKey: `stray-savings:${owner}`,
      actor: 'test',
      postings: [
        { accountId: f.clearing, amount: -1n },
        { accountId: await f.ledger.accountId('live', owner, 'USDT', 'savings'), amount: 1n },
      ],
    });
    const expected = rows.find((r) => r.ownerId === owner)?.amount ?? 0n;
    const jobs = new JobRunner(f.db, 'node-a', f.logger);
    jobs.register(subLedgerReconciliationJob(principal, f.ledger, f.audit));
    const now = new Date('2028-07-01T01:00:00Z');
    expect(await jobs.tick('test.savings-principal-reconciliation', now)).toBe(true);
    expect(await jobs.tick('test.savings-principal-reconciliation', now)).toBe(false);
    const alerts = (await f.audit.openAlerts()).filter((a) => a.message.startsWith('savings reconciliation'));
    expect(alerts.map((a) => a.message)).toEqual([
      'savings reconciliation: 1 owner(s) whose savings account differs',
    ]);
    expect(JSON.parse(alerts[0]?.data ?? '{}').differences).toEqual([
      { book: 'live', ownerId: owner, ledger: (expected + 1n).toString(), holdings: expected.toString() },
    ]);
    await f.ledger.reverse(stray.entryId, {
      actor: 'test',
      reason: 'undo the stray',
      idempotencyKey: `undo-stray:${owner}`,
    });
    expect(await reconcileSubLedger(principal, f.ledger, f.audit)).toEqual([]);
  });
});
