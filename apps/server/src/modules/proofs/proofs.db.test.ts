import { createHash, createPublicKey, verify } from 'node:crypto';
import { proofMessage } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { KeyRing } from '../../platform/keys.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { leavesByAsset, ProofsService } from './proofs.service.ts';
import { buildTree, NegativeSumError } from './proofs.tree.ts';

/**
 * An independent verifier, written from the README's description and nothing of proofs.tree.ts:
 * recompute the leaf, fold up with the siblings' hashes and sums, check every sum is a whole
 * number at or above zero, compare with the signed root and check the Ed25519 signature.
 */
type Branch = NonNullable<Awaited<ReturnType<ProofsService['branch']>>>;
function u128(value: string): Buffer {
  if (!/^\d+$/.test(value)) throw new Error(`not a whole number at or above zero: ${value}`);
  const n = BigInt(value);
  if (n >= 1n << 128n) throw new Error('beyond 128 bits');
  return Buffer.from(n.toString(16).padStart(32, '0'), 'hex');
}
const sha = (...parts: (Buffer | string)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
function independentlyVerified({ root, leaf }: Branch): boolean {
  if (!leaf) return false;
  const lines = ['balance', 'earn', 'smart', 'loan'] as const;
  let sums = lines.map((l) => BigInt(leaf.sums[l]));
  let hash = sha(
    Buffer.from([0]),
    `${root.treeId}\n${leaf.customerId}\n`,
    Buffer.from(leaf.secret, 'hex'),
    ...lines.map((l) => u128(leaf.sums[l])),
  );
  if (leaf.siblings.length !== Math.ceil(Math.log2(Math.max(root.leafCount, 1)))) return false;
  let index = leaf.index;
  for (const sibling of leaf.siblings) {
    const own = Buffer.concat([hash, ...sums.map((s) => u128(String(s)))]);
    const other = Buffer.concat([Buffer.from(sibling.hash, 'hex'), ...sibling.sums.map(u128)]);
    hash = sha(Buffer.from([1]), ...(index % 2 === 0 ? [own, other] : [other, own]));
    sums = sums.map((s, i) => s + BigInt(sibling.sums[i] as string));
    index = Math.floor(index / 2);
  }
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(root.publicKey, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  const expected = [
    'swx proof of liabilities v1',
    `tree ${root.treeId}`,
    `taken ${root.takenAt}`,
    `root ${hash.toString('hex')}`,
    `leaves ${root.leafCount}`,
    ...lines.map((l, i) => `${l} ${sums[i]}`),
  ].join('\n');
  return (
    hash.toString('hex') === root.rootHash &&
    root.message === expected &&
    verify(null, Buffer.from(expected), key, Buffer.from(root.signature, 'hex'))
  );
}

let t: TestDatabase;
let ledger: LedgerService;
let audit: AuditService;
let proofs: ProofsService;
const keys = KeyRing.random();
const CUSTOMERS = [101, 102, 103, 104, 105, 106, 107];

async function credit(
  customer: number,
  kind: string,
  amount: bigint,
  key: string,
  from = 'external_clearing' as const,
) {
  await ledger.transfer({
    book: 'live',
    kind: 'deposit',
    idempotencyKey: `proofs-test:${key}`,
    actor: 'test',
    reference: 'proofs test',
    postings: [
      { accountId: await ledger.systemAccount('live', 'USDT', from), amount: -amount },
      { accountId: await ledger.accountId('live', customer, 'USDT', kind), amount },
    ],
  });
}

beforeAll(async () => {
  t = await openTestDatabase();
  audit = new AuditService(t.db);
  ledger = new LedgerService(t.db, audit);
  await ledger.ensureSystemAccounts();
  proofs = new ProofsService({
    db: t.db,
    ledger,
    audit,
    leafKeys: keys.purpose('proof-leaves'),
    signingKeys: keys.purpose('proof-signing'),
    assets: null,
    now: () => Date.parse('2027-03-01T00:00:30Z'),
  });
  for (const [i, c] of CUSTOMERS.entries()) await credit(c, 'wallet', BigInt(1_000_000 * (i + 1)), `w${c}`);
  await credit(102, 'earn', 5_000_000n, 'e102');
  await credit(103, 'smart', 7_000_000n, 's103');
  await credit(104, 'loan', 2_500_000n, 'l104', 'loans_receivable' as 'external_clearing');
}, 120_000);
afterAll(() => t.close());

describe(`proof of liabilities on ${TEST_DB}`, () => {
  it('publishes a signed root per asset whose totals are the ledger’s; every customer’s branch verifies independently', async () => {
    const roots = await proofs.snapshot('2027-03-01');
    const usdt = roots.find((r) => r.asset === 'USDT');
    expect(usdt).toMatchObject({
      leafCount: 7,
      totals: { balance: '28000000', earn: '5000000', smart: '7000000', loan: '2500000' },
    });
    expect(usdt?.message).toBe(proofMessage(usdt as NonNullable<typeof usdt>));
    for (const c of CUSTOMERS) {
      const branch = await proofs.branch(c, '2027-03-01', 'USDT');
      expect(branch?.leaf?.customerId).toBe(c);
      expect(independentlyVerified(branch as Branch)).toBe(true);
    }
    // Once a day: asked again, the same roots.
    const again = await proofs.snapshot('2027-03-01');
    expect(again.map((r) => r.rootHash).sort()).toEqual(roots.map((r) => r.rootHash).sort());
  });

  it('a customer gets only their own leaf; one who held nothing gets none', async () => {
    const mine = await proofs.branch(102, '2027-03-01', 'USDT');
    expect(mine?.leaf?.sums).toEqual({ balance: '2000000', earn: '5000000', smart: '0', loan: '0' });
    expect((await proofs.branch(999, '2027-03-01', 'USDT'))?.leaf).toBeNull();
    expect((await proofs.branch(101, '2027-03-01', 'BTC'))?.leaf).toBeNull();
    expect(await proofs.branch(101, '2027-02-01', 'USDT')).toBeNull();
  });

  it('a forged negative leaf is refused by the builder, and by the verifier when it hides in a sibling', async () => {
    expect(() =>
      buildTree('t', Buffer.alloc(32), [
        { customerId: 1, sums: [5n, 0n, 0n, 0n] },
        { customerId: 2, sums: [-3n, 0n, 0n, 0n] },
      ]),
    ).toThrow(NegativeSumError);
    const branch = (await proofs.branch(101, '2027-03-01', 'USDT')) as Branch;
    const leaf = branch.leaf as NonNullable<Branch['leaf']>;
    const first = leaf.siblings[0] as (typeof leaf.siblings)[number];
    const forged = {
      ...branch,
      leaf: {
        ...leaf,
        siblings: [
          { ...first, sums: ['-1', '0', '0', '0'] as [string, string, string, string] },
          ...leaf.siblings.slice(1),
        ],
      },
    };
    expect(() => independentlyVerified(forged)).toThrow('not a whole number');
    // A changed balance does not reach the signed root.
    expect(
      independentlyVerified({ ...branch, leaf: { ...leaf, sums: { ...leaf.sums, balance: '1' } } }),
    ).toBe(false);
  });

  it('a snapshot taken while transfers post equals the ledger after exactly some number of them', async () => {
    const amounts = Array.from({ length: 40 }, (_, i) => BigInt(1000 + i));
    const from = (i: number) => CUSTOMERS[i % CUSTOMERS.length] as number;
    const to = (i: number) => CUSTOMERS[(i + 3) % CUSTOMERS.length] as number;
    const before = leavesByAsset((await ledger.customerSnapshot('live')).accounts).get('USDT') ?? [];
    const posting = (async () => {
      for (const [i, amount] of amounts.entries())
        await ledger.transfer({
          book: 'live',
          kind: 'transfer',
          idempotencyKey: `proofs-trading:${i}`,
          actor: 'test',
          reference: 'trading',
          postings: [
            { accountId: await ledger.accountId('live', from(i), 'USDT', 'wallet'), amount: -amount },
            { accountId: await ledger.accountId('live', to(i), 'USDT', 'wallet'), amount },
          ],
        });
    })();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const taken = leavesByAsset((await ledger.customerSnapshot('live')).accounts).get('USDT') ?? [];
    await posting;
    const balances = (leaves: typeof before) => new Map(leaves.map((l) => [l.customerId, l.sums[0]]));
    const expected = new Map(balances(before));
    const matches: number[] = [];
    for (let k = 0; k <= amounts.length; k++) {
      if ([...expected].every(([c, b]) => balances(taken).get(c) === b)) matches.push(k);
      if (k === amounts.length) break;
      const amount = amounts[k] as bigint;
      expected.set(from(k), (expected.get(from(k)) ?? 0n) - amount);
      expected.set(to(k), (expected.get(to(k)) ?? 0n) + amount);
    }
    expect(matches).toHaveLength(1);
    expect(taken.reduce((s, l) => s + l.sums[0], 0n)).toBe(before.reduce((s, l) => s + l.sums[0], 0n));
  });
});
