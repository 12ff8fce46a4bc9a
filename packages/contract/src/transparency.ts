import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The charity donation log's format and its verifiers (RFC 9162 §2.1, certificate-transparency
 * style), for the browser as much as the server: a leaf's canonical bytes, leaf and node hashes,
 * inclusion and consistency proof verification, and the signed tree head. The server builds the
 * tree and its proofs (apps/server/src/modules/nft/log/transparency.ts); this file only checks
 * them, trusting nothing the server computed but the bytes it checks. Hashes travel as lowercase hex.
 */

/** One donation of the log: a sale's proceeds to the charity, or a payout to the charity's own address. */
export type DonationLeafFields = {
  /** The leaf's index in the log (0, 1, 2, …). */
  seq: number;
  kind: 'sale' | 'payout';
  /** The drop (a sale's), or null (a payout). */
  dropId: number | null;
  /** The token id on the chain, decimal (a sale's), or null. */
  tokenId: string | null;
  asset: string;
  /** Minor units, a decimal string above zero. */
  amount: string;
  /** The chain transaction (a payout's), lowercase 0x hex, or null. */
  txHash: string | null;
  /** When it was logged: ISO 8601 UTC with milliseconds (`Date.prototype.toISOString`). */
  at: string;
};

export const DONATION_LEAF_TAG = 'swx nft donation v1';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function field(text: string): Uint8Array {
  const bytes = utf8ToBytes(text);
  return concatBytes(new Uint8Array([bytes.length >> 8, bytes.length & 0xff]), bytes);
}

/** Why a leaf has no canonical encoding, or null when it has one. */
export function donationLeafProblem(leaf: DonationLeafFields): string | null {
  if (!Number.isSafeInteger(leaf.seq) || leaf.seq < 0) return 'seq';
  if (leaf.kind !== 'sale' && leaf.kind !== 'payout') return 'kind';
  if (leaf.dropId !== null && (!Number.isSafeInteger(leaf.dropId) || leaf.dropId < 1)) return 'dropId';
  if (leaf.tokenId !== null && !/^(0|[1-9]\d{0,77})$/.test(leaf.tokenId)) return 'tokenId';
  if (leaf.tokenId !== null && BigInt(leaf.tokenId) >= 1n << 256n) return 'tokenId';
  if (!/^[A-Z][A-Z0-9]{1,9}$/.test(leaf.asset)) return 'asset';
  if (!/^[1-9]\d{0,38}$/.test(leaf.amount)) return 'amount';
  if (leaf.txHash !== null && !/^0x[0-9a-f]{64}$/.test(leaf.txHash)) return 'txHash';
  if (!ISO.test(leaf.at) || new Date(leaf.at).toISOString() !== leaf.at) return 'at';
  return null;
}

/**
 * The leaf's canonical bytes (README "The donation log"): the tag and the nine fields in order,
 * each a 2-byte big-endian length and its UTF-8 text; null as the empty text. A leaf with a field
 * out of its canonical form is refused, so one donation has exactly one encoding.
 */
export function donationLeafBytes(leaf: DonationLeafFields): Uint8Array {
  const problem = donationLeafProblem(leaf);
  if (problem) throw new Error(`not a canonical donation leaf: ${problem}`);
  return concatBytes(
    ...[
      DONATION_LEAF_TAG,
      String(leaf.seq),
      leaf.kind,
      leaf.dropId === null ? '' : String(leaf.dropId),
      leaf.tokenId ?? '',
      leaf.asset,
      leaf.amount,
      leaf.txHash ?? '',
      leaf.at,
    ].map(field),
  );
}

/** RFC 9162 §2.1.1: the leaf hash, SHA-256(0x00 || leaf). */
export function logLeafHash(leaf: Uint8Array): Uint8Array {
  return sha256(concatBytes(new Uint8Array([0]), leaf));
}

/** RFC 9162 §2.1.1: an interior node's hash, SHA-256(0x01 || left || right). */
export function logNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(new Uint8Array([1]), left, right));
}

const HASH_HEX = /^[0-9a-f]{64}$/;
const sizeOk = (n: number) => Number.isSafeInteger(n) && n >= 0;

function hashes(hex: readonly string[]): Uint8Array[] | null {
  return hex.every((h) => HASH_HEX.test(h)) ? hex.map((h) => hexToBytes(h)) : null;
}

/**
 * RFC 9162 §2.1.3.2: does `path` prove the leaf of hash `leafHash` at `index` in the tree of
 * `size` leaves whose root is `root`? (Hashes in hex; a malformed input is a false.)
 */
export function verifyInclusion(input: {
  index: number;
  size: number;
  leafHash: string;
  path: readonly string[];
  root: string;
}): boolean {
  const path = hashes(input.path);
  if (!path || !HASH_HEX.test(input.leafHash) || !HASH_HEX.test(input.root)) return false;
  if (!sizeOk(input.index) || !sizeOk(input.size) || input.index >= input.size) return false;
  let fn = BigInt(input.index);
  let sn = BigInt(input.size - 1);
  let r: Uint8Array = hexToBytes(input.leafHash);
  for (const p of path) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      r = logNodeHash(p, r);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else r = logNodeHash(r, p);
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && bytesToHex(r) === input.root;
}

/**
 * RFC 9162 §2.1.4.2: does `path` prove that the tree of `m` leaves with root `rootM` is a prefix
 * of the tree of `n` leaves with root `rootN`? (1 ≤ m ≤ n; m = n takes an empty path and equal roots.)
 */
export function verifyConsistency(input: {
  m: number;
  n: number;
  rootM: string;
  rootN: string;
  path: readonly string[];
}): boolean {
  const given = hashes(input.path);
  if (!given || !HASH_HEX.test(input.rootM) || !HASH_HEX.test(input.rootN)) return false;
  if (!sizeOk(input.m) || !sizeOk(input.n) || input.m < 1 || input.m > input.n) return false;
  if (input.m === input.n) return given.length === 0 && input.rootM === input.rootN;
  if (given.length === 0) return false;
  const powerOfTwo = (input.m & (input.m - 1)) === 0;
  const path = powerOfTwo ? [hexToBytes(input.rootM), ...given] : given;
  let fn = BigInt(input.m - 1);
  let sn = BigInt(input.n - 1);
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr: Uint8Array = path[0] as Uint8Array;
  let sr: Uint8Array = fr;
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      fr = logNodeHash(c, fr);
      sr = logNodeHash(c, sr);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else sr = logNodeHash(sr, c);
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && bytesToHex(fr) === input.rootM && bytesToHex(sr) === input.rootN;
}

/** A signed tree head's fields (the wire's `nftTreeHead`). */
export type TreeHeadFields = { treeSize: number; rootHash: string; timestamp: number };

/** The text a tree head's Ed25519 signature is over (UTF-8): four lines, no trailing newline. */
export function treeHeadMessage(head: TreeHeadFields): string {
  return [
    'swx nft donation log tree head v1',
    `tree_size ${head.treeSize}`,
    `root ${head.rootHash}`,
    `timestamp ${head.timestamp}`,
  ].join('\n');
}

/** Is `signature` (hex) the Ed25519 signature of the head's message by `publicKey` (hex, 32 bytes)? */
export function verifyTreeHead(head: TreeHeadFields & { signature: string }, publicKey: string): boolean {
  if (!sizeOk(head.treeSize) || !sizeOk(head.timestamp) || !HASH_HEX.test(head.rootHash)) return false;
  if (!/^[0-9a-f]{128}$/.test(head.signature) || !/^[0-9a-f]{64}$/.test(publicKey)) return false;
  try {
    return ed25519.verify(
      hexToBytes(head.signature),
      utf8ToBytes(treeHeadMessage(head)),
      hexToBytes(publicKey),
    );
  } catch {
    return false;
  }
}
