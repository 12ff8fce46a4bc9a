import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  donationLeafBytes,
  treeHeadMessage,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHead,
} from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../../tests/support/db.ts';
import { KeyRing } from '../../../platform/keys.ts';
import { DonationLog, DonationLogError, type DonationTreeHead } from './log.service.ts';

let t: TestDatabase;
let log: DonationLog;
const clock = { now: Date.parse('2027-05-01T09:00:00.000Z') };
const PAYOUT_TX = `0x${'ab'.repeat(32)}`;

/** The root by RFC 9162's definition, from the served leaf bytes (independent of transparency.ts). */
function rootOf(leaves: Buffer[]): string {
  const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
  const mth = (d: Buffer[]): Buffer => {
    if (d.length === 1) return sha(Buffer.from([0]), d[0] as Buffer);
    let k = 1;
    while (k * 2 < d.length) k *= 2;
    return sha(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)));
  };
  return mth(leaves).toString('hex');
}

/** Ed25519 with node's own implementation, not the contract's. */
function signedByKey(head: DonationTreeHead): boolean {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(head.publicKey, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, Buffer.from(treeHeadMessage(head)), key, Buffer.from(head.signature, 'hex'));
}

const sale = (dropId: number, tokenId: bigint, amount: bigint) => ({
  kind: 'sale' as const,
  dropId,
  tokenId,
  amount,
  asset: 'USDT',
});

async function allLeafBytes(): Promise<Buffer[]> {
  const leaves = await log.leaves(null, 1000);
  return leaves.reverse().map((l) => Buffer.from(l.leafData, 'hex'));
}

beforeAll(async () => {
  t = await openTestDatabase();
  log = new DonationLog({
    db: t.db,
    signingKeys: KeyRing.random().purpose('donation-log-signing'),
    now: () => clock.now,
  });
}, 120_000);
afterAll(() => t.close());

describe(`the donation log on ${TEST_DB}`, () => {
  it('appends donations in their transactions, numbered without a gap; a rolled-back one leaves none', async () => {
    expect(await t.db.transaction((tx) => log.append(tx, sale(1, 11n, 5_000_000n)))).toBe(0);
    await expect(
      t.db.transaction(async (tx) => {
        await log.append(tx, sale(1, 12n, 7_000_000n));
        throw new Error('the sale failed');
      }),
    ).rejects.toThrow('the sale failed');
    clock.now += 1000;
    // Two appended together in one transaction (a settlement batch) beside one alone: the batch's
    // leaves are consecutive, in its order, and no index is given twice or skipped.
    const [batch, alone] = await Promise.all([
      t.db.transaction((tx) => log.appendMany(tx, [sale(2, 12n, 1_000_000n), sale(2, 13n, 1_000_000n)])),
      t.db.transaction((tx) => log.append(tx, sale(2, 14n, 1_000_000n))),
    ]);
    expect(batch[1]).toBe((batch[0] as number) + 1);
    expect([...batch, alone].sort()).toEqual([1, 2, 3]);
    const payout = await t.db.transaction((tx) =>
      log.append(tx, { kind: 'payout', amount: 6_000_000n, asset: 'USDT', txHash: PAYOUT_TX }),
    );
    expect(payout).toBe(4);
    expect(await log.size()).toBe(5);
    const [last] = await log.leaves(null, 1);
    expect(last).toMatchObject({ index: 4, kind: 'payout', dropId: null, tokenId: null, txHash: PAYOUT_TX });
    expect(last?.leafData).toBe(
      Buffer.from(
        donationLeafBytes({ ...(last as NonNullable<typeof last>), seq: 4, at: last?.createdAt ?? '' }),
      ).toString('hex'),
    );
  });

  it('refuses a donation without a canonical form', async () => {
    const bad = [
      { ...sale(1, 1n, 0n) },
      { ...sale(1, -1n, 5n) },
      { kind: 'payout' as const, amount: 5n, asset: 'USDT', txHash: '0x1234' },
      { ...sale(1, 1n, 5n), asset: 'usdt' },
    ];
    for (const entry of bad)
      await expect(t.db.transaction((tx) => log.append(tx, entry))).rejects.toThrow(DonationLogError);
    expect(await log.size()).toBe(5);
  });

  it('publishes signed tree heads; every leaf’s inclusion and the heads’ consistency verify', async () => {
    clock.now += 60_000;
    const first = await log.publishTreeHead();
    expect(first).toMatchObject({ treeSize: 5, timestamp: clock.now, publicKey: log.publicKey });
    expect(first.rootHash).toBe(rootOf(await allLeafBytes()));
    expect(verifyTreeHead(first, log.publicKey)).toBe(true);
    expect(signedByKey(first)).toBe(true);
    expect(verifyTreeHead({ ...first, treeSize: 6 }, log.publicKey)).toBe(false);
    expect(await log.treeHead()).toEqual(first);

    for (const id of [20n, 21n, 22n]) await t.db.transaction((tx) => log.append(tx, sale(3, id, 2_500_000n)));
    clock.now += 86_400_000;
    const second = await log.publishTreeHead();
    expect(second.treeSize).toBe(8);
    expect(second.rootHash).toBe(rootOf(await allLeafBytes()));
    expect(await log.treeHead(5)).toEqual(first);
    expect((await log.heads()).map((h) => h.treeSize)).toEqual([8, 5]);

    for (const head of [first, second])
      for (let index = 0; index < head.treeSize; index++) {
        const proof = await log.inclusion(index, head.treeSize);
        const leafHash = createHash('sha256')
          .update(Buffer.concat([Buffer.from([0]), Buffer.from(proof.leaf.leafData, 'hex')]))
          .digest('hex');
        expect(
          verifyInclusion({ index, size: head.treeSize, leafHash, path: proof.path, root: head.rootHash }),
        ).toBe(true);
      }
    const consistency = await log.consistency(5, 8);
    expect(
      verifyConsistency({
        m: 5,
        n: 8,
        rootM: first.rootHash,
        rootN: second.rootHash,
        path: consistency.path,
      }),
    ).toBe(true);
    await expect(log.inclusion(8, 8)).rejects.toThrow(DonationLogError);
    await expect(log.inclusion(0, 9)).rejects.toThrow(DonationLogError);
    await expect(log.consistency(6, 5)).rejects.toThrow(DonationLogError);
  });

  it('computes the cumulative donation from the log', async () => {
    expect(await log.cumulative('USDT')).toEqual({
      given: 5_000_000n + 3_000_000n + 7_500_000n,
      paidOut: 6_000_000n,
    });
    expect(await log.cumulative('USDT', 2)).toEqual({ given: 3_000_000n, paidOut: 0n });
    expect(await log.cumulative('BTC')).toEqual({ given: 0n, paidOut: 0n });
  });

  it('answers one drop’s leaves, newest first and paged, read through the drop’s index', async () => {
    const indexes = (leaves: { index: number }[]) => leaves.map((l) => l.index);
    const three = await log.leaves(null, 100, 3);
    expect(three.map((l) => [l.index, l.dropId, l.kind])).toEqual([
      [7, 3, 'sale'],
      [6, 3, 'sale'],
      [5, 3, 'sale'],
    ]);
    expect(indexes(await log.leaves(7, 1, 3))).toEqual([6]);
    expect(indexes(await log.leaves(5, 100, 3))).toEqual([]);
    expect(indexes(await log.leaves(null, 100, 2))).toEqual([3, 2, 1]);
    expect(indexes(await log.leaves(null, 100, 1))).toEqual([0]);
    expect(await log.leaves(null, 100, 99)).toEqual([]);
    // Unfiltered, the payout (no drop) is there; it is in no drop's leaves.
    expect(indexes(await log.leaves(null, 100))).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    // The planner can answer a drop's leaves from nft_donation_log_drop (0054) without the table's
    // every row (sequential scans off: the tables of this test are too small to be worth an index).
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<Record<string, string>>(
        'EXPLAIN SELECT seq FROM nft_donation_log WHERE drop_id = 3 ORDER BY seq DESC LIMIT 100',
      );
    });
    expect(JSON.stringify(plan)).toContain('nft_donation_log_drop');
  });

  it('refuses to change or remove a leaf or a head, and a leaf out of its turn', async () => {
    await expect(t.db.query('UPDATE nft_donation_log SET amount = 1 WHERE seq = 0')).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query('DELETE FROM nft_donation_log WHERE seq = 7')).rejects.toThrow(/append-only/);
    await expect(t.db.query('UPDATE nft_tree_heads SET size = 1')).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM nft_tree_heads')).rejects.toThrow(/append-only/);
    await expect(
      t.db.query(
        `INSERT INTO nft_donation_log (seq, kind, asset, amount, at, leaf_data)
         VALUES (20, 'sale', 'USDT', 1, now(), '\\x00')`,
      ),
    ).rejects.toThrow(/without a gap/);
    expect(await log.size()).toBe(8);
    expect((await log.treeHead())?.treeSize).toBe(8);
  });
});
