import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerFacts } from './ledger.facts.ts';
import { LedgerService } from './ledger.service.ts';

/**
 * The fees collected per paying customer and day, read from the journal as the invite programme
 * reads them: only entries of the kinds asked, that debited exactly one customer; per asset; and
 * the fees a reversal gave back, on the original entry's day.
 */
let t: TestDatabase;
let ledger: LedgerService;
let facts: LedgerFacts;
let nextUser = 7_100;

beforeAll(async () => {
  t = await openTestDatabase();
  ledger = new LedgerService(t.db, new AuditService(t.db));
  facts = new LedgerFacts(t.db);
  await ledger.ensureSystemAccounts();
});
afterAll(() => t.close());

const USDT = (units: number) => BigInt(units) * 1_000_000n;

async function newCustomer(): Promise<number> {
  const id = nextUser++;
  await ledger.openCustomerBooks(id);
  return id;
}

describe(`ledger facts on ${TEST_DB}`, () => {
  it('counts a fee for its one paying customer, per day and asset, and gives a reversed one back', async () => {
    const [a, b, c] = [await newCustomer(), await newCustomer(), await newCustomer()];
    const wallet = (id: number) => ledger.walletAccount('demo', id, 'USDT');
    const fees = await ledger.systemAccount('demo', 'USDT', 'fees');
    const margin = await ledger.systemAccount('demo', 'USDT', 'external_clearing');
    const post = (key: string, kind: 'trade_margin' | 'deposit', postings: [number, bigint][]) =>
      ledger.transfer({
        book: 'demo',
        kind,
        idempotencyKey: `ledger-facts-${key}`,
        actor: 'test',
        postings: postings.map(([accountId, amount]) => ({ accountId, amount })),
      });
    // a pays 3 of fees in two entries (1 + 2); b pays 5; a and b together pay 7 (no single payer:
    // not counted); c's 11 is of a kind not asked; c's 13 is counted, then reversed.
    const first = await post('a1', 'trade_margin', [
      [await wallet(a), -USDT(10)],
      [fees, USDT(1)],
      [margin, USDT(9)],
    ]);
    await post('a2', 'trade_margin', [
      [await wallet(a), -USDT(2)],
      [fees, USDT(2)],
    ]);
    await post('b', 'trade_margin', [
      [await wallet(b), -USDT(5)],
      [fees, USDT(5)],
    ]);
    await post('ab', 'trade_margin', [
      [await wallet(a), -USDT(3)],
      [await wallet(b), -USDT(4)],
      [fees, USDT(7)],
    ]);
    await post('c-kind', 'deposit', [
      [await wallet(c), -USDT(11)],
      [fees, USDT(11)],
    ]);
    const reversed = await post('c', 'trade_margin', [
      [await wallet(c), -USDT(13)],
      [fees, USDT(13)],
    ]);
    const day = first.createdAt.slice(0, 10);
    await ledger.reverse(reversed.entryId, {
      actor: 'test',
      reason: 'test',
      idempotencyKey: 'ledger-facts-reversal',
    });

    const q = { book: 'demo' as const, from: day, to: day, kinds: ['trade_margin' as const] };
    const collected = await facts.feesCollected({ ...q, ownerIds: [a, b, c] });
    const byOwner = new Map(collected.map((f) => [f.ownerId, f]));
    expect(byOwner.get(a)).toEqual({ ownerId: a, day, asset: 'USDT', fee: USDT(3) });
    expect(byOwner.get(b)).toEqual({ ownerId: b, day, asset: 'USDT', fee: USDT(5) });
    // The reversed entry is still a fee collected that day; the reversal answers it separately.
    expect(byOwner.get(c)).toEqual({ ownerId: c, day, asset: 'USDT', fee: USDT(13) });
    expect(collected).toHaveLength(3);
    // Only the customers asked; null asks for all of them.
    expect((await facts.feesCollected({ ...q, ownerIds: [b] })).map((f) => f.ownerId)).toEqual([b]);
    const all = await facts.feesCollected({ ...q, ownerIds: null });
    expect(all.filter((f) => [a, b, c].includes(f.ownerId))).toHaveLength(3);
    // Another day has none of them.
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await facts.feesCollected({ ...q, from: next, to: next, ownerIds: [a, b, c] })).toEqual([]);

    const given = await facts.feesReversed(q);
    expect(given.filter((f) => [a, b, c].includes(f.ownerId))).toEqual([
      { ownerId: c, day, asset: 'USDT', fee: USDT(13) },
    ]);
  });
});
