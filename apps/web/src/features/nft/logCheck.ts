import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  type DonationLeafFields,
  donationLeafBytes,
  logLeafHash,
  type NftLogLeaf,
  type NftTreeHead,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHead,
} from '@swx/contract';

/**
 * The donation log's checks as the page makes them, trusting the server for nothing but the
 * signed tree head: the head's Ed25519 signature is checked with the log's public key (the one the
 * reader pins: every head the page was given must carry the same one); a leaf's bytes are
 * rebuilt here from the fields the page shows and must be the bytes served, then hashed here;
 * the audit path and the consistency path must fold up to the signed roots (contract
 * transparency.ts, RFC 9162 §2.1.3.2 and §2.1.4.2).
 */

export type LogVerdict =
  | { ok: true; steps: number }
  | {
      ok: false;
      reason: 'key' | 'signature' | 'leaf' | 'mismatch' | 'proof' | 'size';
    };

/** The one public key of the log: every head's, or null when they differ (a head signed by another key). */
export function pinnedKey(heads: readonly NftTreeHead[]): string | null {
  const key = heads[0]?.publicKey ?? null;
  return key !== null && heads.every((h) => h.publicKey === key) ? key : null;
}

/** The wire leaf as the fields its bytes are made of (the amount in minor units, as hashed). */
export function leafFields(leaf: NftLogLeaf): DonationLeafFields {
  return {
    seq: leaf.index,
    kind: leaf.kind,
    dropId: leaf.dropId,
    tokenId: leaf.tokenId,
    asset: leaf.asset,
    amount: leaf.amount,
    txHash: leaf.txHash,
    at: leaf.createdAt,
  };
}

/** The leaf hash (hex) of the page's own encoding of the leaf, or null when its fields are not canonical or are not the bytes served. */
export function ownLeafHash(leaf: NftLogLeaf): string | null {
  try {
    const bytes = donationLeafBytes(leafFields(leaf));
    if (bytesToHex(bytes) !== leaf.leafData.toLowerCase()) return null;
    return bytesToHex(logLeafHash(hexToBytes(leaf.leafData.toLowerCase())));
  } catch {
    return null;
  }
}

/** What the buyer expects of their donation's leaf: a sale of their drop, of this many minor units. */
export type ExpectedDonation = { dropId: number; asset: string; amountMinor: string };

/**
 * Is the buyer's donation in the log of this signed head? The head is checked against `key`, the
 * leaf's bytes rebuilt and compared with what the buyer expects, and the audit path folded to the
 * head's root.
 */
export function checkInclusion(input: {
  head: NftTreeHead;
  key: string;
  proof: { leaf: NftLogLeaf; treeSize: number; path: readonly string[] };
  expected: ExpectedDonation | null;
}): LogVerdict {
  const { head, key, proof, expected } = input;
  if (head.publicKey !== key) return { ok: false, reason: 'key' };
  if (!verifyTreeHead(head, key)) return { ok: false, reason: 'signature' };
  if (proof.treeSize !== head.treeSize) return { ok: false, reason: 'size' };
  const leafHash = ownLeafHash(proof.leaf);
  if (leafHash === null) return { ok: false, reason: 'leaf' };
  const leaf = proof.leaf;
  if (
    expected &&
    (leaf.kind !== 'sale' ||
      leaf.dropId !== expected.dropId ||
      leaf.asset !== expected.asset ||
      leaf.amount !== expected.amountMinor)
  )
    return { ok: false, reason: 'mismatch' };
  const ok = verifyInclusion({
    index: leaf.index,
    size: head.treeSize,
    leafHash,
    path: proof.path,
    root: head.rootHash,
  });
  return ok ? { ok: true, steps: proof.path.length } : { ok: false, reason: 'proof' };
}

/** Does the newer signed head's log extend the older one's? Both heads are checked against `key`. */
export function checkConsistency(input: {
  older: NftTreeHead;
  newer: NftTreeHead;
  key: string;
  proof: { m: number; n: number; path: readonly string[] };
}): LogVerdict {
  const { older, newer, key, proof } = input;
  if (older.publicKey !== key || newer.publicKey !== key) return { ok: false, reason: 'key' };
  if (!verifyTreeHead(older, key) || !verifyTreeHead(newer, key)) return { ok: false, reason: 'signature' };
  if (proof.m !== older.treeSize || proof.n !== newer.treeSize) return { ok: false, reason: 'size' };
  const ok = verifyConsistency({
    m: older.treeSize,
    n: newer.treeSize,
    rootM: older.rootHash,
    rootN: newer.rootHash,
    path: proof.path,
  });
  return ok ? { ok: true, steps: proof.path.length } : { ok: false, reason: 'proof' };
}
