import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../../../../tests/support/db.ts';
import type { Queryable } from '../../platform/db.ts';
import type { EntryAttachment } from '../ledger/ledger.service.ts';
import { LedgerError } from '../ledger/ledger.types.ts';
import {
  DAY_TOTAL,
  openSavingsFixture,
  PAGE_1_TOTAL,
  runOn,
  type SavingsFixture,
} from './products.testing.ts';
import { settlementKey } from './settlement.ts';

/**
 * The runner's compound entries (one per page, the source debited once, each holding credited by
 * its own posting) against the real ledger, with the tests' savings product (products.testing.ts:
 * 1,000 holdings, two pages of 500, owner c holding c+1, c+251, c+501, c+751, so each owner has
 * two holdings in each page) and an income row per holding and day of the test's own, written by
 * the payment's attachment in the page's transaction.
 */
let f: SavingsFixture;
let income: EntryAttachment<{ holdingId: number; day: string; amount: string }, never>;

beforeAll(async () => {
  f = await openSavingsFixture();
  await f.db.exec(`CREATE TABLE test_incomes (
    holding_id bigint NOT NULL, day date NOT NULL, amount numeric(78,0) NOT NULL, entry_id bigint NOT NULL,
    PRIMARY KEY (holding_id, day))`);
  const writer = async (
    tx: Queryable,
    rows: readonly { entryId: number; data: { holdingId: number; day: string; amount: string } }[],
  ) => {
    await tx.query(
      `INSERT INTO test_incomes (holding_id, day, amount, entry_id)
       SELECT * FROM unnest($1::bigint[], $2::date[], $3::numeric[], $4::bigint[])`,
      [
        rows.map((r) => r.data.holdingId),
        rows.map((r) => r.data.day),
        rows.map((r) => r.data.amount),
        rows.map((r) => r.entryId),
      ],
    );
    return new Map<number, never>();
  };
  income = f.ledger.attachment('earn_payout', writer);
  f.ledgerB.attachment('earn_payout', writer);
}, 120_000);
afterAll(() => f.close());
afterEach(() => f.expectSound(), 120_000);

const withIncome = (name: string) =>
  f.savings(name, {
    attach: (h, day, amount) => income.with({ holdingId: h.id, day, amount: amount.toString() }),
  });

/** Postings of a product's day that disagree with its income rows (either missing, or another amount or entry). */
const unreconciled = (product: string, day: string) =>
  f.db.query<{ key: string | null; holding_id: string | null }>(
    `WITH lines AS (
       SELECT p.idempotency_key AS key, p.entry_id, p.amount FROM ledger_postings p
       WHERE p.idempotency_key LIKE 'settle:' || $1 || ':%:' || $2
     ), incomes AS (
       SELECT i.*, 'settle:' || $1 || ':' || i.holding_id || ':' || i.day::text AS key FROM test_incomes i
       WHERE i.day = $2::date
         AND EXISTS (SELECT 1 FROM ledger_entries e
                     WHERE e.id = i.entry_id AND e.idempotency_key LIKE 'bulk:settle:' || $1 || ':%')
     )
     SELECT l.key, i.holding_id FROM lines l FULL JOIN incomes i ON i.key = l.key
     WHERE l.key IS NULL OR i.key IS NULL OR l.amount <> i.amount OR l.entry_id <> i.entry_id`,
    [product, day],
  );

const counts = async () => {
  const [row] = await f.db.query<{ entries: string; postings: string; incomes: string }>(
    `SELECT (SELECT count(*) FROM ledger_entries) AS entries, (SELECT count(*) FROM ledger_postings) AS postings,
       (SELECT count(*) FROM test_incomes) AS incomes`,
  );
  return row;
};

describe(`compound settlement entries on ${TEST_DB}`, () => {
  it('a day is paid by compound entries whose postings reconcile to each holding’s income row, to the minor unit', async () => {
    const product = withIncome('test.bulk');
    await f.fundReserve(DAY_TOTAL, 'bulk');
    f.clock.now = runOn('2029-01-01');
    expect(await f.runner().settleDay(product, 'live', '2029-01-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await unreconciled('test.bulk', '2029-01-01')).toEqual([]);
    expect(await f.paid('test.bulk')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    // Two pages, each owner twice in each: two compound entries a page, the source debited once in each.
    const entries = await f.db.query<{
      id: string;
      debits: string;
      debit: string;
      credits: string;
      credited: string;
    }>(
      `SELECT e.id, count(*) FILTER (WHERE p.amount < 0) AS debits, sum(p.amount) FILTER (WHERE p.amount < 0) AS debit,
         count(*) FILTER (WHERE p.amount > 0 AND p.idempotency_key IS NOT NULL) AS credits,
         sum(p.amount) FILTER (WHERE p.amount > 0) AS credited
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id
       WHERE e.idempotency_key LIKE 'bulk:settle:test.bulk:%' GROUP BY e.id ORDER BY e.id`,
    );
    expect(entries.map((e) => Number(e.credits))).toEqual([250, 250, 250, 250]);
    expect(entries.every((e) => Number(e.debits) === 1 && BigInt(e.debit) === -BigInt(e.credited))).toBe(
      true,
    );
    expect(entries.reduce((s, e) => s + BigInt(e.credited), 0n)).toBe(DAY_TOTAL);
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a rerun of the day changes nothing: by either node, at once, or with the day’s record forgotten', async () => {
    const product = withIncome('test.bulk');
    const before = await counts();
    const reruns = await Promise.all([
      f.runner().settleDay(product, 'live', '2029-01-01'),
      f.runner('b').settleDay(product, 'live', '2029-01-01'),
    ]);
    for (const r of reruns)
      expect(r).toMatchObject({ status: 'settled', payments: 1000, paidMinor: DAY_TOTAL });
    await f.db.query("DELETE FROM settlement_days WHERE product = 'test.bulk'");
    expect(await f.runner('b').settleDay(product, 'live', '2029-01-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await counts()).toEqual(before);
    expect(await f.paid('test.bulk')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
    // A one-entry payment under a key a compound entry paid (a loan's catch-up) is that payment again.
    const [owner] = f.owners as [number];
    const wallet = await f.ledger.walletAccount('live', owner, 'USDT');
    const replay = await f.ledger.transfer({
      book: 'live',
      kind: 'earn_payout',
      idempotencyKey: settlementKey('test.bulk', 1, '2029-01-01'),
      actor: 'system',
      reference: 'test.bulk:1',
      postings: [
        { accountId: f.reserve, amount: -50_000n },
        { accountId: wallet, amount: 50_000n },
      ],
    });
    expect(replay.replayed).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('a page begun under the one-entry keys (before the upgrade) is finished in bulk without paying anyone twice', async () => {
    const product = withIncome('test.bulk-upgrade');
    await f.fundReserve(DAY_TOTAL, 'bulk-upgrade');
    // Holdings 1..10 were paid one entry each, the old way, before the run.
    for (let id = 1; id <= 10; id++) {
      const owner = f.owners[(id - 1) % 250] as number;
      await f.ledger.transfer({
        book: 'live',
        kind: 'earn_payout',
        idempotencyKey: settlementKey('test.bulk-upgrade', id, '2029-02-01'),
        actor: 'system',
        reference: `test.bulk-upgrade:${id}`,
        postings: [
          { accountId: f.reserve, amount: -50_000n * BigInt(id) },
          { accountId: await f.ledger.walletAccount('live', owner, 'USDT'), amount: 50_000n * BigInt(id) },
        ],
      });
    }
    f.clock.now = runOn('2029-02-01');
    expect(await f.runner().settleDay(product, 'live', '2029-02-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
    });
    expect(await f.paid('test.bulk-upgrade')).toEqual({ entries: 1000, holdings: 1000, total: DAY_TOTAL });
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a page the source cannot cover pays nothing and stops; funded, the day is paid once', async () => {
    const product = withIncome('test.bulk-short');
    await f.fundReserve(PAGE_1_TOTAL - 1n, 'bulk-short');
    f.clock.now = runOn('2029-03-01');
    const before = await counts();
    expect(await f.runner().settleDay(product, 'live', '2029-03-01')).toMatchObject({
      status: 'unfunded',
      payments: 0,
      paidMinor: 0n,
      shortfall: { firstHoldingId: 1, neededMinor: PAGE_1_TOTAL, availableMinor: PAGE_1_TOTAL - 1n },
    });
    expect(await counts()).toEqual(before);
    expect(await f.paid('test.bulk-short')).toEqual({ entries: 0, holdings: 0, total: 0n });
    // The page's reservation stays as the day's claim.
    expect(await f.reserveNow()).toEqual({ balance: PAGE_1_TOTAL - 1n, held: PAGE_1_TOTAL });
    await f.fundReserve(DAY_TOTAL - PAGE_1_TOTAL + 1n, 'bulk-short-2');
    expect(await f.runner().settleDay(product, 'live', '2029-03-01')).toMatchObject({
      status: 'settled',
      payments: 1000,
      paidMinor: DAY_TOTAL,
      late: true,
    });
    expect(await unreconciled('test.bulk-short', '2029-03-01')).toEqual([]);
    expect(await f.reserveNow()).toEqual({ balance: 0n, held: 0n });
  });

  it('a customer’s record of a compound entry shows their own posting only, as a one-entry payment would', async () => {
    const owner = f.owners[6] as number; // holds 7, 257 (page 1) and 507, 757 (page 2)
    const events = (await f.ledger.eventsOf('live', owner, { kind: 'earn_payout', limit: 100 })).filter((e) =>
      e.reference?.startsWith('test.bulk:'),
    );
    expect(events.map((e) => e.reference).sort()).toEqual([
      'test.bulk:257',
      'test.bulk:507',
      'test.bulk:7',
      'test.bulk:757',
    ]);
    const wallet = await f.ledger.walletAccount('live', owner, 'USDT');
    for (const e of events) {
      const amount = 50_000n * BigInt(e.reference?.split(':')[1] ?? 0);
      expect(e.changes).toEqual([{ asset: 'USDT', amount }]);
      const postings = [
        { account: 'yield_reserve', own: false, asset: 'USDT', amount: -amount },
        { account: 'wallet', own: true, asset: 'USDT', amount },
      ];
      expect(e.postings).toEqual(wallet < f.reserve ? postings.toReversed() : postings);
      expect(e.margin).toBeNull();
      expect(e.fee).toBeNull();
    }
    // One event per entry: the entries are the four compound entries of the day.
    expect(new Set(events.map((e) => e.entryId)).size).toBe(4);
    const lines = (await f.ledger.entriesOf('live', owner, { kind: 'earn_payout', limit: 100 })).filter((l) =>
      l.reference?.startsWith('test.bulk:'),
    );
    expect(lines.map((l) => [l.reference, l.amount]).sort()).toEqual(
      events.map((e) => [e.reference, e.changes[0]?.amount]).sort(),
    );
  });

  it('a page with a line to no account, or to one of another book or asset, is refused whole and writes nothing', async () => {
    const [a, b] = [f.owners[0] as number, f.owners[1] as number];
    const wallet = await f.ledger.walletAccount('live', a, 'USDT');
    const others = {
      asset: await f.ledger.walletAccount('live', b, 'BTC'),
      book: await f.ledger.walletAccount('demo', b, 'USDT'),
    };
    const before = await counts();
    const page = (accountId: number) =>
      f.ledger.postCompound({
        book: 'live',
        kind: 'earn_payout',
        sourceAccountId: f.reserve,
        actor: 'test',
        reference: 'settlement:test.refused:2027-01-01',
        lines: [
          {
            key: 'settle:test.refused:1:2027-01-01',
            accountId: wallet,
            amount: 1n,
            reference: 'test.refused:1',
          },
          { key: 'settle:test.refused:2:2027-01-01', accountId, amount: 1n, reference: 'test.refused:2' },
        ],
      });
    const refused = (reason: string, message: string) => (error: unknown) =>
      error instanceof LedgerError && error.reason === reason && error.message === message;
    await expect(page(999_999_999)).rejects.toSatisfy(
      refused('unknown_account', 'account 999999999 does not exist'),
    );
    for (const other of [others.asset, others.book])
      await expect(page(other)).rejects.toSatisfy(
        refused('invalid_request', 'a line pays within the source’s book and asset'),
      );
    // The source itself unknown, or of another book than the page's.
    await expect(
      f.ledger.postCompound({
        book: 'live',
        kind: 'earn_payout',
        sourceAccountId: 999_999_998,
        actor: 'test',
        reference: 'r',
        lines: [{ key: 'settle:test.refused:3:2027-01-01', accountId: wallet, amount: 1n, reference: 'r' }],
      }),
    ).rejects.toSatisfy(refused('unknown_account', 'account 999999998 does not exist'));
    await expect(
      f.ledger.postCompound({
        book: 'demo',
        kind: 'earn_payout',
        sourceAccountId: f.reserve,
        actor: 'test',
        reference: 'r',
        lines: [
          { key: 'settle:test.refused:4:2027-01-01', accountId: others.book, amount: 1n, reference: 'r' },
        ],
      }),
    ).rejects.toSatisfy(refused('invalid_request', 'a posting may not cross books'));
    expect(await counts()).toEqual(before);
  });
});
