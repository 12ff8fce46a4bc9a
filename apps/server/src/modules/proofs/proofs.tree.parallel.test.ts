import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTreeParallel } from './proofs.tree.parallel.ts';
import { buildTree, type Leaf, NegativeSumError } from './proofs.tree.ts';

const leavesOf = (n: number, big = 0n): Leaf[] =>
  Array.from({ length: n }, (_, i) => ({
    customerId: 1_000 + i * 3,
    sums: [BigInt(i * 7919) + big, BigInt(i % 3), 0n, BigInt(i % 5) * 10n ** 30n],
  }));

// The threads must give the very tree the main thread gives: every level's hashes and sums, the
// order of the leaves and the root, at sizes that leave odd levels and slices of unequal length.
describe('the tree built on worker threads', () => {
  it.each([1, 2, 3, 17, 1_000, 5_003])(
    'equals the main thread’s, node for node, for %i leaves',
    async (n) => {
      const key = randomBytes(32);
      const leaves = leavesOf(n, 2n ** 60n);
      const alone = buildTree('swx-pol-v1:2027-06-01:USDT', key, leaves);
      const threaded = await buildTreeParallel('swx-pol-v1:2027-06-01:USDT', key, leaves, {
        threads: 3,
        minLeaves: 0,
        minLevel: 2,
      });
      expect(threaded.order).toEqual(alone.order);
      expect(threaded.tree.root.hash.equals(alone.tree.root.hash)).toBe(true);
      expect(threaded.tree.root.sums).toEqual(alone.tree.root.sums);
      expect(threaded.tree.levels.length).toBe(alone.tree.levels.length);
      threaded.tree.levels.forEach((level, i) => {
        const other = alone.tree.levels[i];
        expect(level.count).toBe(other?.count);
        expect(level.hashes.equals(other?.hashes ?? Buffer.alloc(0))).toBe(true);
        expect(level.sums.equals(other?.sums ?? Buffer.alloc(0))).toBe(true);
      });
    },
  );

  it('refuses a negative leaf, naming its customer, and a sum beyond 2^128 found by a thread', async () => {
    const key = randomBytes(32);
    const negative = leavesOf(64);
    negative[40] = { customerId: 77, sums: [-1n, 0n, 0n, 0n] };
    const refused = await buildTreeParallel('t', key, negative, { minLeaves: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NegativeSumError);
    expect((refused as NegativeSumError).customerId).toBe(77);

    const huge = leavesOf(64).map((leaf) => ({ ...leaf, sums: [2n ** 127n, 0n, 0n, 0n] as const }));
    const overflow = await buildTreeParallel('t', key, huge, { minLeaves: 0, minLevel: 1 }).catch(
      (e: unknown) => e,
    );
    expect(overflow).toBeInstanceOf(NegativeSumError);
    expect((overflow as Error).message).toMatch(/beyond 2\^128/);
  });
});
