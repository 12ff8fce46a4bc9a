import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { NftLogLeaf, NftTreeHead } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { checkConsistency, checkInclusion, pinnedKey } from './logCheck.ts';

/*
 * A donation log made here with its own code (RFC 9162 §2.1: MTH, PATH and PROOF written from the
 * RFC's definitions, the leaf bytes from the log README's table), not the contract's: the page's
 * checks must accept its proofs and refuse any change to them.
 */
const field = (text: string) => {
  const b = utf8ToBytes(text);
  return concatBytes(new Uint8Array([b.length >> 8, b.length & 0xff]), b);
};
const leafBytes = (l: NftLogLeaf) =>
  concatBytes(
    ...[
      'swx nft donation v1',
      String(l.index),
      l.kind,
      l.dropId === null ? '' : String(l.dropId),
      l.tokenId ?? '',
      l.asset,
      l.amount,
      l.txHash ?? '',
      l.createdAt,
    ].map(field),
  );
const leafHash = (b: Uint8Array) => sha256(concatBytes(new Uint8Array([0]), b));
const nodeHash = (a: Uint8Array, b: Uint8Array) => sha256(concatBytes(new Uint8Array([1]), a, b));
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
function mth(d: Uint8Array[]): Uint8Array {
  if (d.length === 0) return sha256(new Uint8Array());
  if (d.length === 1) return d[0] as Uint8Array;
  const k = split(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
}
function auditPath(m: number, d: Uint8Array[]): Uint8Array[] {
  if (d.length <= 1) return [];
  const k = split(d.length);
  return m < k
    ? [...auditPath(m, d.slice(0, k)), mth(d.slice(k))]
    : [...auditPath(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function subproof(m: number, d: Uint8Array[], whole: boolean): Uint8Array[] {
  const n = d.length;
  if (m === n) return whole ? [] : [mth(d)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, d.slice(0, k), whole), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

const leaves: NftLogLeaf[] = Array.from({ length: 7 }, (_, i) => ({
  index: i,
  kind: i === 3 ? 'payout' : 'sale',
  dropId: i === 3 ? null : 10 + i,
  tokenId: i === 3 ? null : String(i + 1),
  asset: 'USDT',
  amount: String((i + 1) * 1_000_000),
  txHash: i === 3 ? `0x${'ab'.repeat(32)}` : null,
  createdAt: `2027-01-0${i + 1}T10:00:00.000Z`,
  leafData: '',
}));
for (const l of leaves) l.leafData = bytesToHex(leafBytes(l));
const hashes = leaves.map((l) => leafHash(leafBytes(l)));

const secret = ed25519.utils.randomSecretKey();
const publicKey = bytesToHex(ed25519.getPublicKey(secret));
function head(size: number, key = secret): NftTreeHead {
  const rootHash = bytesToHex(mth(hashes.slice(0, size)));
  const timestamp = 1_800_000_000_000 + size;
  const message = `swx nft donation log tree head v1\ntree_size ${size}\nroot ${rootHash}\ntimestamp ${timestamp}`;
  return {
    treeSize: size,
    rootHash,
    timestamp,
    signature: bytesToHex(ed25519.sign(utf8ToBytes(message), key)),
    keyId: 'donation-log-1',
    publicKey: bytesToHex(ed25519.getPublicKey(key)),
  };
}
const inclusion = (index: number, size: number) => ({
  leaf: leaves[index] as NftLogLeaf,
  treeSize: size,
  path: auditPath(index, hashes.slice(0, size)).map(bytesToHex),
});
const consistency = (m: number, n: number) => ({
  m,
  n,
  path: subproof(m, hashes.slice(0, n), true).map(bytesToHex),
});
const mine = { dropId: 15, asset: 'USDT', amountMinor: '6000000' };

describe("a buyer's donation in a signed head", () => {
  it('is proved for every leaf of every size', () => {
    for (let size = 1; size <= 7; size += 1)
      for (let index = 0; index < size; index += 1)
        expect(
          checkInclusion({ head: head(size), key: publicKey, proof: inclusion(index, size), expected: null }),
        ).toMatchObject({ ok: true });
    expect(checkInclusion({ head: head(7), key: publicKey, proof: inclusion(5, 7), expected: mine })).toEqual(
      {
        ok: true,
        steps: 3,
      },
    );
  });

  it('is refused when the leaf is not the donation the buyer made', () => {
    const verdict = checkInclusion({
      head: head(7),
      key: publicKey,
      proof: inclusion(4, 7),
      expected: mine,
    });
    expect(verdict).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('is refused when a field was changed, the path altered, or the head not signed by the pinned key', () => {
    const proof = inclusion(5, 7);
    const richer = { ...proof, leaf: { ...proof.leaf, amount: '9000000' } };
    expect(checkInclusion({ head: head(7), key: publicKey, proof: richer, expected: null })).toEqual({
      ok: false,
      reason: 'leaf',
    });
    const path = [...proof.path];
    path[1] = (path[1] as string).replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(
      checkInclusion({ head: head(7), key: publicKey, proof: { ...proof, path }, expected: null }),
    ).toEqual({
      ok: false,
      reason: 'proof',
    });
    const forged = head(7, ed25519.utils.randomSecretKey());
    expect(checkInclusion({ head: forged, key: publicKey, proof, expected: null })).toEqual({
      ok: false,
      reason: 'key',
    });
    const resigned = { ...head(7), rootHash: bytesToHex(mth(hashes.slice(0, 6))) };
    expect(checkInclusion({ head: resigned, key: publicKey, proof, expected: null })).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(checkInclusion({ head: head(6), key: publicKey, proof, expected: null })).toEqual({
      ok: false,
      reason: 'size',
    });
  });
});

describe("today's head extends yesterday's", () => {
  it('is proved between every two sizes', () => {
    for (let n = 1; n <= 7; n += 1)
      for (let m = 1; m <= n; m += 1)
        expect(
          checkConsistency({ older: head(m), newer: head(n), key: publicKey, proof: consistency(m, n) }),
        ).toMatchObject({ ok: true });
  });

  it('is refused for a log that was rewritten', () => {
    const proof = consistency(3, 7);
    const path = [...proof.path].reverse();
    expect(
      checkConsistency({ older: head(3), newer: head(7), key: publicKey, proof: { ...proof, path } }),
    ).toEqual({
      ok: false,
      reason: 'proof',
    });
    const other = head(7, ed25519.utils.randomSecretKey());
    expect(checkConsistency({ older: head(3), newer: other, key: publicKey, proof })).toEqual({
      ok: false,
      reason: 'key',
    });
  });

  it('pins the one key every head carries', () => {
    expect(pinnedKey([head(3), head(7)])).toBe(publicKey);
    expect(pinnedKey([head(3), head(7, ed25519.utils.randomSecretKey())])).toBeNull();
    expect(pinnedKey([])).toBeNull();
  });
});
