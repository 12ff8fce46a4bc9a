import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  openTestPool,
  TEST_DB,
  type TestDatabase,
} from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import type { Database } from '../../platform/db.ts';
import { AuditService } from '../audit/audit.service.ts';
import { DEMO_FUNDING_MINOR, LedgerError, LedgerService } from './ledger.service.ts';

/**
 * Several nodes at once: on PostgreSQL each "node" is its own LedgerService with its own pool and
 * batcher, so the database's locks are what keep money safe. PGlite has one connection, so its
 * nodes share it (still concurrent callers, one batcher each).
 */
let t: TestDatabase;
const extraPools: Database[] = [];
let nodes: LedgerService[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  const dbs: Database[] = [t.db];
  if (t.url) for (let i = 0; i < 3; i++) extraPools.push(await openTestPool(t.url));
  dbs.push(...extraPools);
  nodes = (t.url ? dbs : [t.db, t.db, t.db, t.db]).map((db) => new LedgerService(db, new AuditService(db)));
  await nodes[0]?.ensureSystemAccounts();
});
afterAll(async () => {
  for (const pool of extraPools) await pool.close();
  await t.close();
});

const node = (i: number) => nodes[i % nodes.length] as LedgerService;

// Whatever the nodes did at once, the ledger is sound after every test.
afterEach(() => expectLedgerSound({ db: t.db, ledger: node(0), audit: new AuditService(t.db) }));

describe(`concurrency on ${TEST_DB}`, () => {
  it('64 concurrent debits of the full balance: exactly one succeeds', async () => {
    const user = 501;
    await node(0).openCustomerBooks(user);
    const wallet = await node(0).walletAccount('demo', user, 'USDT');
    const house = await node(0).systemAccount('demo', 'USDT', 'house_pnl');
    const attempts = await Promise.allSettled(
      Array.from({ length: 64 }, (_, i) =>
        node(i).transfer({
          book: 'demo',
          kind: 'withdrawal',
          idempotencyKey: `drain-${user}-${i}`,
          actor: 'test',
          postings: [
            { accountId: wallet, amount: -DEMO_FUNDING_MINOR },
            { accountId: house, amount: DEMO_FUNDING_MINOR },
          ],
        }),
      ),
    );
    const ok = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.filter((a) => a.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(
      refused.every(
        (a) =>
          a.status === 'rejected' &&
          a.reason instanceof LedgerError &&
          a.reason.reason === 'insufficient_funds',
      ),
    ).toBe(true);
    expect((await node(0).balances('demo', user)).find((b) => b.asset === 'USDT')?.balance).toBe(0n);
  });

  it('50 concurrent requests with one idempotency key: one effect, identical answers', async () => {
    const user = 502;
    await node(0).openCustomerBooks(user);
    const wallet = await node(0).walletAccount('demo', user, 'USDT');
    const fees = await node(0).systemAccount('demo', 'USDT', 'fees');
    const request = {
      book: 'demo' as const,
      kind: 'fee' as const,
      idempotencyKey: `same-key-${user}`,
      actor: 'test',
      postings: [
        { accountId: wallet, amount: -1_500_000n },
        { accountId: fees, amount: 1_500_000n },
      ],
    };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => node(i).transfer(request)));
    const ids = new Set(answers.map((a) => `${a.entryId}@${a.createdAt}`));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect((await node(0).balances('demo', user)).find((b) => b.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR - 1_500_000n,
    );
  });

  it('many transfers between few accounts from several nodes keep every total exact', async () => {
    const users = [503, 504, 505];
    for (const u of users) await node(0).openCustomerBooks(u);
    const wallets = await Promise.all(users.map((u) => node(0).walletAccount('demo', u, 'USDT')));
    await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) => {
        const from = wallets[i % 3] as number;
        const to = wallets[(i + 1) % 3] as number;
        return node(i).transfer({
          book: 'demo',
          kind: 'transfer',
          idempotencyKey: `ring-${i}-of-300`,
          actor: 'test',
          postings: [
            { accountId: from, amount: -BigInt(1000 + i) },
            { accountId: to, amount: BigInt(1000 + i) },
          ],
        });
      }),
    );
    let total = 0n;
    for (const u of users)
      total += (await node(0).balances('demo', u)).find((b) => b.asset === 'USDT')?.balance ?? 0n;
    expect(total).toBe(3n * DEMO_FUNDING_MINOR);
  });
});
