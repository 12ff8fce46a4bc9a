import { createHash } from 'node:crypto';
import { donationLeafBytes, verifyConsistency, verifyInclusion } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { consistencyProof, inclusionProof, leafHash, nodeHash, treeHash } from './transparency.ts';

/**
 * An independent RFC 9162 verifier, written here from the RFC's definitions and nothing of
 * transparency.ts or the contract's verifiers: the tree hash by its recursive definition, and the
 * proofs checked by rebuilding the roots top-down along the same recursion (the proof consumed from
 * its end), rather than the RFC's bit-walking algorithms the contract implements.
 */
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const H_LEAF = (leaf: Buffer) => sha(Buffer.from([0]), leaf);
const H_NODE = (l: Buffer, r: Buffer) => sha(Buffer.from([1]), l, r);
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return H_LEAF(leaves[0] as Buffer);
  const k = split(leaves.length);
  return H_NODE(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

/** The root an inclusion proof leads to, or null when its length does not fit the tree. */
function rootFromInclusion(leaf: Buffer, index: number, size: number, proof: Buffer[]): Buffer | null {
  if (index < 0 || index >= size) return null;
  if (size === 1) return proof.length === 0 ? H_LEAF(leaf) : null;
  if (proof.length === 0) return null;
  const k = split(size);
  const last = proof[proof.length - 1] as Buffer;
  const below = rootFromInclusion(
    leaf,
    index < k ? index : index - k,
    index < k ? k : size - k,
    proof.slice(0, -1),
  );
  if (!below) return null;
  return index < k ? H_NODE(below, last) : H_NODE(last, below);
}
const includes = (leaf: Buffer, index: number, size: number, proof: Buffer[], root: Buffer) =>
  rootFromInclusion(leaf, index, size, proof)?.equals(root) === true;

/** The (old, new) roots a consistency proof leads to, knowing the old root; null when it does not fit. */
function rootsFromConsistency(
  m: number,
  n: number,
  proof: Buffer[],
  whole: boolean,
  old: Buffer,
): [Buffer, Buffer] | null {
  if (m === n) {
    if (whole) return proof.length === 0 ? [old, old] : null;
    return proof.length === 1 ? [proof[0] as Buffer, proof[0] as Buffer] : null;
  }
  if (proof.length === 0) return null;
  const k = split(n);
  const last = proof[proof.length - 1] as Buffer;
  const rest = proof.slice(0, -1);
  if (m <= k) {
    const below = rootsFromConsistency(m, k, rest, whole, old);
    return below && [below[0], H_NODE(below[1], last)];
  }
  const below = rootsFromConsistency(m - k, n - k, rest, false, old);
  return below && [H_NODE(last, below[0]), H_NODE(last, below[1])];
}
const consistent = (m: number, n: number, proof: Buffer[], oldRoot: Buffer, newRoot: Buffer) => {
  const roots = m >= 1 && m <= n ? rootsFromConsistency(m, n, proof, true, oldRoot) : null;
  if (!roots) return false;
  return roots[0].equals(oldRoot) && roots[1].equals(newRoot);
};

const LEAVES = Array.from({ length: 40 }, (_, seq) =>
  Buffer.from(
    donationLeafBytes({
      seq,
      kind: seq % 3 === 2 ? 'payout' : 'sale',
      dropId: seq % 3 === 2 ? null : 10 + seq,
      tokenId: seq % 3 === 2 ? null : String(1000 + seq),
      asset: 'USDT',
      amount: String(1_000_000 * (seq + 1)),
      txHash: seq % 3 === 2 ? `0x${seq.toString(16).padStart(64, 'a')}` : null,
      at: new Date(Date.UTC(2027, 0, 1) + seq * 60_000).toISOString(),
    }),
  ),
);
const HASHES = LEAVES.map(leafHash);
const hex = (b: Buffer[]) => b.map((x) => x.toString('hex'));
const flip = (b: Buffer, at = 0) => {
  const c = Buffer.from(b);
  c[at] = (c[at] as number) ^ 1;
  return c;
};

describe('the donation log tree (RFC 9162) against an independent verifier', () => {
  it('hashes leaves and nodes with their prefixes, and every size’s root is the definition’s', () => {
    expect(leafHash(LEAVES[0] as Buffer)).toEqual(H_LEAF(LEAVES[0] as Buffer));
    expect(nodeHash(HASHES[0] as Buffer, HASHES[1] as Buffer)).toEqual(
      H_NODE(HASHES[0] as Buffer, HASHES[1] as Buffer),
    );
    expect(treeHash([]).toString('hex')).toBe(createHash('sha256').digest('hex'));
    for (let n = 1; n <= 40; n++) expect(treeHash(HASHES.slice(0, n))).toEqual(mth(LEAVES.slice(0, n)));
  });

  it('proves every leaf of every tree of sizes 1..40; both verifiers agree', () => {
    for (let size = 1; size <= 40; size++) {
      const root = mth(LEAVES.slice(0, size));
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(HASHES, index, size);
        expect(includes(LEAVES[index] as Buffer, index, size, proof, root)).toBe(true);
        const input = {
          index,
          size,
          leafHash: (HASHES[index] as Buffer).toString('hex'),
          path: hex(proof),
          root: root.toString('hex'),
        };
        expect(verifyInclusion(input)).toBe(true);
        // Tampered: another leaf, another index, a proof element changed, dropped or added.
        expect(verifyInclusion({ ...input, leafHash: flip(HASHES[index] as Buffer).toString('hex') })).toBe(
          false,
        );
        expect(includes(flip(LEAVES[index] as Buffer, 5), index, size, proof, root)).toBe(false);
        if (size > 1) {
          expect(verifyInclusion({ ...input, index: (index + 1) % size })).toBe(false);
          expect(
            verifyInclusion({ ...input, path: hex([flip(proof[0] as Buffer), ...proof.slice(1)]) }),
          ).toBe(false);
          expect(verifyInclusion({ ...input, path: input.path.slice(1) })).toBe(false);
          expect(
            includes(
              LEAVES[index] as Buffer,
              index,
              size,
              [flip(proof[0] as Buffer), ...proof.slice(1)],
              root,
            ),
          ).toBe(false);
        }
        expect(verifyInclusion({ ...input, path: [...input.path, root.toString('hex')] })).toBe(false);
        expect(verifyInclusion({ ...input, size: index })).toBe(false);
      }
    }
  });

  it('proves every tree of size m ≤ n ≤ 40 consistent with the larger; both verifiers agree', () => {
    for (let n = 1; n <= 40; n++) {
      const rootN = mth(LEAVES.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const rootM = mth(LEAVES.slice(0, m));
        const proof = consistencyProof(HASHES, m, n);
        expect(consistent(m, n, proof, rootM, rootN)).toBe(true);
        const input = { m, n, rootM: rootM.toString('hex'), rootN: rootN.toString('hex'), path: hex(proof) };
        expect(verifyConsistency(input)).toBe(true);
        if (m === n) continue;
        // Tampered: a rewritten history (another old root), a proof element changed or dropped.
        const forged = flip(rootM);
        expect(verifyConsistency({ ...input, rootM: forged.toString('hex') })).toBe(false);
        expect(consistent(m, n, proof, forged, rootN)).toBe(false);
        expect(verifyConsistency({ ...input, rootN: flip(rootN).toString('hex') })).toBe(false);
        expect(
          verifyConsistency({ ...input, path: hex([flip(proof[0] as Buffer), ...proof.slice(1)]) }),
        ).toBe(false);
        expect(verifyConsistency({ ...input, path: input.path.slice(0, -1) })).toBe(false);
        expect(consistent(m, n, proof.slice(0, -1), rootM, rootN)).toBe(false);
      }
    }
  });

  it('a log whose earlier leaf was changed is not consistent with what was published', () => {
    const rewritten = HASHES.map((h, i) => (i === 3 ? leafHash(flip(LEAVES[3] as Buffer, 9)) : h));
    const published = treeHash(HASHES.slice(0, 10));
    const proof = consistencyProof(rewritten, 10, 30);
    const input = {
      m: 10,
      n: 30,
      rootM: published.toString('hex'),
      rootN: treeHash(rewritten).toString('hex'),
    };
    expect(
      verifyConsistency({
        ...input,
        rootN: treeHash(rewritten.slice(0, 30)).toString('hex'),
        path: hex(proof),
      }),
    ).toBe(false);
    expect(consistent(10, 30, proof, published, treeHash(rewritten.slice(0, 30)))).toBe(false);
  });

  it('refuses proofs of trees the log does not have', () => {
    expect(() => inclusionProof(HASHES, 0, 0)).toThrow(RangeError);
    expect(() => inclusionProof(HASHES, 5, 5)).toThrow(RangeError);
    expect(() => inclusionProof(HASHES, 0, 41)).toThrow(RangeError);
    expect(() => consistencyProof(HASHES, 0, 4)).toThrow(RangeError);
    expect(() => consistencyProof(HASHES, 5, 4)).toThrow(RangeError);
  });
});
