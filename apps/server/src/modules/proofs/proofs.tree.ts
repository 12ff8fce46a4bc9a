import { createHmac, hash as digest } from 'node:crypto';

/**
 * The Merkle sum tree of one asset's customer balances (README "The tree"). Each node carries four
 * sums, one per line (`PROOF_LINES`: balance, earn, smart, loan), each an unsigned 128-bit figure
 * in minor units, big-endian:
 *
 * - leaf = SHA-256(0x00 ‖ treeId ‖ 0x0a ‖ customer id ‖ 0x0a ‖ secret (32 bytes) ‖ sums (64 bytes))
 * - node = SHA-256(0x01 ‖ left hash ‖ left sums ‖ right hash ‖ right sums); its sums are the
 *   children's added per line
 * - a level of odd length is closed by the padding node SHA-256(0x02), sums zero.
 *
 * A negative figure cannot be encoded: a leaf below zero (or a sum of 2^128 or more) refuses the
 * whole tree (`NegativeSumError`). The levels are kept as flat buffers (32 bytes of hash, 64 of
 * sums per node), so a million leaves stay a few hundred megabytes short of what objects would take.
 */

export const PROOF_LINES = ['balance', 'earn', 'smart', 'loan'] as const;
export type ProofLine = (typeof PROOF_LINES)[number];
export type Sums = readonly [bigint, bigint, bigint, bigint];

export const LEAF_PREFIX = 0x00;
export const NODE_PREFIX = 0x01;
export const PAD_PREFIX = 0x02;
export const HASH = 32;
export const SUMS = 64;
const LIMIT = 1n << 128n;
const MASK64 = (1n << 64n) - 1n;

/** SHA-256 in one call (no hash object to make and collect: a million of those cost more than the hashing). */
const sha256 = (data: Uint8Array): Buffer => digest('sha256', data, 'buffer');

export const PAD_HASH = sha256(Buffer.from([PAD_PREFIX]));

/** A tree refused: a leaf (or a sum) below zero or beyond 128 bits. Staff are alerted. */
export class NegativeSumError extends Error {
  readonly customerId: number | null;
  constructor(message: string, customerId: number | null) {
    super(message);
    this.customerId = customerId;
  }
}

export type Leaf = { customerId: number; sums: Sums };
export type Level = { hashes: Buffer; sums: Buffer; count: number };
export type Tree = { treeId: string; levels: Level[]; root: { hash: Buffer; sums: Sums }; leafCount: number };
export type Sibling = { hash: string; sums: [string, string, string, string] };
export type Branch = { index: number; leafCount: number; siblings: Sibling[] };

/** The tree's id, which every leaf commits to: the day and the asset. */
export const treeIdOf = (day: string, asset: string) => `swx-pol-v1:${day}:${asset}`;

/**
 * The customers' secrets of one tree: HMAC-SHA-256 under the server's proof key of
 * `<treeId>:<customer id>`; only the customer is shown theirs. The key's inner and outer states are
 * padded once (RFC 2104, the same figure as `createHmac`), each customer's two hashes in one call each.
 */
export function leafSecrets(key: Buffer, treeId: string): (customerId: number) => Buffer {
  const block = Buffer.alloc(64);
  (key.length > 64 ? sha256(key) : key).copy(block);
  const head = Buffer.concat([Buffer.from(block.map((b) => b ^ 0x36)), Buffer.from(`${treeId}:`)]);
  const inner = Buffer.alloc(head.length + 20);
  head.copy(inner);
  const outer = Buffer.alloc(64 + HASH);
  Buffer.from(block.map((b) => b ^ 0x5c)).copy(outer);
  return (customerId) => {
    const end = head.length + inner.write(String(customerId), head.length);
    sha256(inner.subarray(0, end)).copy(outer, 64);
    return sha256(outer);
  };
}

/** One customer's secret for one tree (see `leafSecrets`). */
export const leafSecret = (key: Buffer, treeId: string, customerId: number): Buffer =>
  createHmac('sha256', key).update(`${treeId}:${customerId}`).digest();

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes a leaf's four figures as 4 × u128 big-endian at `offset`; a figure outside 0 ≤ x < 2^128 refuses. */
export function writeSums(target: Buffer, offset: number, sums: Sums, customerId: number | null): void {
  for (let i = 0; i < 4; i++) {
    const value = sums[i] as bigint;
    const at = offset + i * 16;
    if (value >= 0n && value <= SAFE) {
      // The usual figure: below 2^53, written as two 32-bit halves without 64-bit arithmetic.
      const n = Number(value);
      target.writeUInt32BE(0, at);
      target.writeUInt32BE(0, at + 4);
      target.writeUInt32BE(Math.floor(n / 0x100000000), at + 8);
      target.writeUInt32BE(n >>> 0, at + 12);
      continue;
    }
    if (value < 0n || value >= LIMIT)
      throw new NegativeSumError(
        `proof of liabilities refused: ${PROOF_LINES[i]} ${value} ${customerId === null ? 'in a sum' : `of customer ${customerId}`} is outside 0 ≤ x < 2^128`,
        customerId,
      );
    target.writeBigUInt64BE(value >> 64n, at);
    target.writeBigUInt64BE(value & MASK64, at + 8);
  }
}

export function readSums(source: Buffer, offset: number): Sums {
  const line = (i: number) =>
    (source.readBigUInt64BE(offset + i * 16) << 64n) | source.readBigUInt64BE(offset + i * 16 + 8);
  return [line(0), line(1), line(2), line(3)];
}

/**
 * The leaves of one tree: the prefix and the tree's id written once into the input, reused for each
 * leaf; the figures given already encoded (64 bytes at `at` of `sums`, see `writeSums`).
 */
export function encodedLeafHasher(
  treeId: string,
): (customerId: number, secret: Uint8Array, sums: Uint8Array, sumsAt: number) => Buffer {
  const head = Buffer.from(`\u0000${treeId}\n`);
  const input = Buffer.alloc(head.length + 20 + HASH + SUMS);
  head.copy(input);
  return (customerId, secret, sums, sumsAt) => {
    let at = head.length + input.write(`${customerId}\n`, head.length);
    input.set(secret.subarray(0, HASH), at);
    at += HASH;
    input.set(sums.subarray(sumsAt, sumsAt + SUMS), at);
    return sha256(input.subarray(0, at + SUMS));
  };
}

/** The leaves of one tree, from their figures (see `encodedLeafHasher`). */
export function leafHasher(treeId: string): (customerId: number, secret: Buffer, sums: Sums) => Buffer {
  const hashOf = encodedLeafHasher(treeId);
  const encoded = Buffer.alloc(SUMS);
  return (customerId, secret, sums) => {
    writeSums(encoded, 0, sums, customerId);
    return hashOf(customerId, secret, encoded, 0);
  };
}

/** Adds two 128-bit sums in place (4 lines of 4 32-bit limbs); a carry out of 128 bits refuses. */
function addSums(a: Buffer, aAt: number, b: Buffer, bAt: number, out: Buffer, outAt: number): void {
  for (let line = 0; line < 4; line++) {
    let carry = 0;
    for (let limb = 3; limb >= 0; limb--) {
      const at = line * 16 + limb * 4;
      const total = a.readUInt32BE(aAt + at) + b.readUInt32BE(bAt + at) + carry;
      out.writeUInt32BE(total >>> 0, outAt + at);
      carry = total > 0xffffffff ? 1 : 0;
    }
    if (carry)
      throw new NegativeSumError(`proof of liabilities refused: ${PROOF_LINES[line]} sum beyond 2^128`, null);
  }
}

const ZERO_SUMS = Buffer.alloc(SUMS);

/** An empty level of `count` nodes, on `memory` (e.g. shared with worker threads) when given. */
export function emptyLevel(count: number, memory?: (bytes: number) => ArrayBufferLike): Level {
  const bytes = (n: number) => (memory ? Buffer.from(memory(n)) : Buffer.alloc(n));
  return { hashes: bytes(count * HASH), sums: bytes(count * SUMS), count };
}

/**
 * Nodes `from`..`to` (exclusive) of the level above `level`, written into `out`: each pair hashed
 * with their sums (an odd last node paired with the padding node).
 */
export function parentRange(level: Level, out: Level, from: number, to: number): void {
  const input = Buffer.alloc(1 + 2 * (HASH + SUMS));
  input[0] = NODE_PREFIX;
  for (let i = from; i < to; i++) {
    const left = 2 * i;
    const right = left + 1;
    const hasRight = right < level.count;
    level.hashes.copy(input, 1, left * HASH, left * HASH + HASH);
    level.sums.copy(input, 1 + HASH, left * SUMS, left * SUMS + SUMS);
    if (hasRight) {
      level.hashes.copy(input, 1 + HASH + SUMS, right * HASH, right * HASH + HASH);
      level.sums.copy(input, 1 + 2 * HASH + SUMS, right * SUMS, right * SUMS + SUMS);
    } else {
      PAD_HASH.copy(input, 1 + HASH + SUMS);
      ZERO_SUMS.copy(input, 1 + 2 * HASH + SUMS);
    }
    sha256(input).copy(out.hashes, i * HASH);
    if (hasRight) addSums(level.sums, left * SUMS, level.sums, right * SUMS, out.sums, i * SUMS);
    else level.sums.copy(out.sums, i * SUMS, left * SUMS, left * SUMS + SUMS);
  }
}

/** The next level up (see `parentRange`). */
export function parentLevel(level: Level): Level {
  const out = emptyLevel(Math.ceil(level.count / 2));
  parentRange(level, out, 0, out.count);
  return out;
}

/** The bottom level from leaves already hashed (stored leaves), in their order. */
export function leafLevel(leaves: readonly { hash: Buffer; sums: Sums; customerId: number }[]): Level {
  const hashes = Buffer.alloc(leaves.length * HASH);
  const sums = Buffer.alloc(leaves.length * SUMS);
  leaves.forEach((leaf, i) => {
    leaf.hash.copy(hashes, i * HASH);
    writeSums(sums, i * SUMS, leaf.sums, leaf.customerId);
  });
  return { hashes, sums, count: leaves.length };
}

/** Folds a bottom level up to its root. */
export function treeOf(treeId: string, bottom: Level): Tree {
  const levels = [bottom];
  let top = bottom;
  while (top.count > 1) {
    top = parentLevel(top);
    levels.push(top);
  }
  return treeOfLevels(treeId, levels);
}

/** The tree of levels already folded (the last one the root's, or an empty bottom level). */
export function treeOfLevels(treeId: string, levels: Level[]): Tree {
  const top = levels[levels.length - 1] as Level;
  const root =
    top.count === 0
      ? { hash: PAD_HASH, sums: [0n, 0n, 0n, 0n] as const }
      : { hash: top.hashes.subarray(0, HASH), sums: readSums(top.sums, 0) };
  return { treeId, levels, root, leafCount: (levels[0] as Level).count };
}

/**
 * The leaves in tree order: ordered by their secret (so a position says nothing of the customer);
 * by its first 32 bits packed with the leaf's index into one number (ties, about one pair in
 * 2^32, by index) when there are at most 2^21 leaves, else by the whole secret. `secrets`: `n`
 * secrets of 32 bytes, one after the other.
 */
export function secretOrder(secrets: Buffer, n: number): number[] {
  if (n <= 1 << 21) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = secrets.readUInt32BE(i * HASH) * 2 ** 21 + i;
    keys.sort();
    return Array.from(keys, (key) => key % 2 ** 21);
  }
  const at = (i: number) => secrets.subarray(i * HASH, i * HASH + HASH);
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => Buffer.compare(at(a), at(b)));
}

/**
 * Builds a tree from customers' figures: each leaf's secret from `key`, the leaves in the order of
 * their secrets, any figure below zero refused. `order[position]` is the index in `leaves` of the
 * leaf at that position; its hash is the bottom level's at that position.
 */
export function buildTree(
  treeId: string,
  key: Buffer,
  leaves: readonly Leaf[],
): { tree: Tree; order: number[] } {
  const secretOf = leafSecrets(key, treeId);
  const secrets = Buffer.alloc(leaves.length * HASH);
  leaves.forEach((leaf, i) => {
    secretOf(leaf.customerId).copy(secrets, i * HASH);
  });
  const order = secretOrder(secrets, leaves.length);
  const hashOf = leafHasher(treeId);
  const bottom = emptyLevel(leaves.length);
  order.forEach((at, position) => {
    const leaf = leaves[at] as Leaf;
    hashOf(leaf.customerId, secrets.subarray(at * HASH, at * HASH + HASH), leaf.sums).copy(
      bottom.hashes,
      position * HASH,
    );
    writeSums(bottom.sums, position * SUMS, leaf.sums, leaf.customerId);
  });
  return { tree: treeOf(treeId, bottom), order };
}

/** The hash of the leaf at `position` of a tree's bottom level. */
export const leafAt = (tree: Tree, position: number): Buffer =>
  (tree.levels[0] as Level).hashes.subarray(position * HASH, position * HASH + HASH);

/** The siblings from the leaf at `index` to the root, each with its hash and sums. */
export function branchOf(tree: Tree, index: number): Branch {
  if (!Number.isInteger(index) || index < 0 || index >= tree.leafCount) throw new Error('no such leaf');
  const siblings: Sibling[] = [];
  let at = index;
  for (const level of tree.levels.slice(0, -1)) {
    const other = at ^ 1;
    const present = other < level.count;
    const hash = present ? level.hashes.subarray(other * HASH, other * HASH + HASH) : PAD_HASH;
    const sums = present ? readSums(level.sums, other * SUMS) : ([0n, 0n, 0n, 0n] as const);
    siblings.push({
      hash: hash.toString('hex'),
      sums: [sums[0].toString(), sums[1].toString(), sums[2].toString(), sums[3].toString()],
    });
    at >>= 1;
  }
  return { index, leafCount: tree.leafCount, siblings };
}

/** The size of a branch in its binary form (32 bytes of hash and 64 of sums a level, 8 of index and count). */
export const branchBytes = (branch: Branch) => 8 + branch.siblings.length * (HASH + SUMS);
