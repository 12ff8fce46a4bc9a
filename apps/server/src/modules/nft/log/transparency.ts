import { createHash } from 'node:crypto';

/**
 * The donation log's Merkle tree (RFC 9162 §2.1): leaf and node hashes with distinct prefixes, the
 * tree hash of any size (split at the largest power of two below it), inclusion proofs (§2.1.3.1)
 * and consistency proofs (§2.1.4.1). Pure: the leaves' hashes in, hashes out. The verifiers are
 * packages/contract's transparency.ts (the browser's), written separately.
 */

/** SHA-256(0x00 || leaf). */
export function leafHash(leaf: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from([0]))
    .update(leaf)
    .digest();
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
}

/** The largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[from:to]) over leaf hashes: the empty tree's is SHA-256 of nothing. */
export function treeHash(leaves: readonly Uint8Array[], from = 0, to = leaves.length): Buffer {
  const n = to - from;
  if (n === 0) return createHash('sha256').digest();
  if (n === 1) return Buffer.from(leaves[from] as Uint8Array);
  const k = splitPoint(n);
  return nodeHash(treeHash(leaves, from, from + k), treeHash(leaves, from + k, to));
}

function checkSize(leaves: readonly Uint8Array[], size: number): void {
  if (!Number.isSafeInteger(size) || size < 1 || size > leaves.length)
    throw new RangeError(`no tree of size ${size} (the log has ${leaves.length} leaves)`);
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1: the inclusion proof of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProof(leaves: readonly Uint8Array[], index: number, size: number): Buffer[] {
  checkSize(leaves, size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size)
    throw new RangeError(`no leaf ${index} in a tree of size ${size}`);
  const path = (m: number, from: number, to: number): Buffer[] => {
    const n = to - from;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, from, from + k), treeHash(leaves, from + k, to)]
      : [...path(m - k, from + k, to), treeHash(leaves, from, from + k)];
  };
  return path(index, 0, size);
}

/** PROOF(m, D[n]) of RFC 9162 §2.1.4.1: that the tree of size m is a prefix of the tree of size n (1 ≤ m ≤ n). */
export function consistencyProof(leaves: readonly Uint8Array[], m: number, n: number): Buffer[] {
  checkSize(leaves, n);
  if (!Number.isSafeInteger(m) || m < 1 || m > n) throw new RangeError(`no consistency from ${m} to ${n}`);
  const subproof = (size: number, from: number, to: number, whole: boolean): Buffer[] => {
    const count = to - from;
    if (size === count) return whole ? [] : [treeHash(leaves, from, to)];
    const k = splitPoint(count);
    return size <= k
      ? [...subproof(size, from, from + k, whole), treeHash(leaves, from + k, to)]
      : [...subproof(size - k, from + k, to, false), treeHash(leaves, from, from + k)];
  };
  return subproof(m, 0, n, true);
}
