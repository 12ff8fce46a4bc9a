import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { PROOF_LINES, type ProofBranchData, proofMessage } from '@swx/contract';

/**
 * The page's own check of a customer's branch, trusting nothing the server computed: the leaf is
 * recomputed from the secret, the customer's figures and the tree's id; it is folded up with each
 * sibling's hash and sums (every sum a whole number at or above zero, below 2^128); the result must
 * be the published root and totals, and the root's text must carry the Ed25519 signature of the
 * published key. The format is the server's README's ("The tree"); this file shares no code with it.
 */

export type Verdict =
  | { ok: true; steps: number; rootHash: string }
  | { ok: false; reason: 'no_leaf' | 'customer' | 'negative' | 'depth' | 'root' | 'totals' | 'signature' };

const LIMIT = 1n << 128n;

class Negative extends Error {}

function u128(text: string): Uint8Array {
  if (!/^\d{1,39}$/.test(text)) throw new Negative(text);
  const value = BigInt(text);
  if (value >= LIMIT) throw new Negative(text);
  return hexToBytes(value.toString(16).padStart(32, '0'));
}

const encodeSums = (sums: readonly string[]) => concatBytes(...sums.map(u128));

/** `customerId`: who the page knows is signed in; a leaf of anyone else is refused. */
export function verifyBranch({ root, leaf }: ProofBranchData, customerId: number): Verdict {
  if (!leaf) return { ok: false, reason: 'no_leaf' };
  if (leaf.customerId !== customerId) return { ok: false, reason: 'customer' };
  try {
    if (
      leaf.siblings.length !== Math.ceil(Math.log2(Math.max(root.leafCount, 1))) ||
      leaf.index >= root.leafCount
    )
      return { ok: false, reason: 'depth' };
    let sums = PROOF_LINES.map((line) => leaf.sums[line]);
    let hash = sha256(
      concatBytes(
        new Uint8Array([0]),
        utf8ToBytes(`${root.treeId}\n${leaf.customerId}\n`),
        hexToBytes(leaf.secret),
        encodeSums(sums),
      ),
    );
    let index = leaf.index;
    for (const sibling of leaf.siblings) {
      const own = concatBytes(hash, encodeSums(sums));
      const other = concatBytes(hexToBytes(sibling.hash), encodeSums(sibling.sums));
      hash = sha256(
        concatBytes(new Uint8Array([1]), index % 2 === 0 ? own : other, index % 2 === 0 ? other : own),
      );
      sums = sums.map((sum, i) => String(BigInt(sum) + BigInt(sibling.sums[i] as string)));
      encodeSums(sums);
      index = Math.floor(index / 2);
    }
    const rootHash = bytesToHex(hash);
    if (rootHash !== root.rootHash) return { ok: false, reason: 'root' };
    if (PROOF_LINES.some((line, i) => root.totals[line] !== sums[i])) return { ok: false, reason: 'totals' };
    const message = proofMessage({ ...root, rootHash });
    if (
      message !== root.message ||
      !ed25519.verify(hexToBytes(root.signature), utf8ToBytes(message), hexToBytes(root.publicKey))
    )
      return { ok: false, reason: 'signature' };
    return { ok: true, steps: leaf.siblings.length, rootHash };
  } catch (error) {
    if (error instanceof Negative) return { ok: false, reason: 'negative' };
    return { ok: false, reason: 'signature' };
  }
}
