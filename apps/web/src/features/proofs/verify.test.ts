import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { type ProofBranchData, proofMessage } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { verifyBranch } from './verify.ts';

/** A three-leaf tree made by hand (the padding node closes the odd level), signed with a fresh key. */
const u128 = (n: bigint) => hexToBytes(n.toString(16).padStart(32, '0'));
const sums = (s: bigint[]) => concatBytes(...s.map(u128));
const treeId = 'swx-pol-v1:2027-01-01:USDT';
const leaves = [
  { id: 7, secret: '11'.repeat(32), s: [5_000_000n, 0n, 0n, 0n] },
  { id: 8, secret: '22'.repeat(32), s: [1n, 2n, 3n, 4n] },
  { id: 9, secret: '33'.repeat(32), s: [10n, 0n, 0n, 1n] },
].map((l) => ({
  ...l,
  hash: sha256(
    concatBytes(new Uint8Array([0]), utf8ToBytes(`${treeId}\n${l.id}\n`), hexToBytes(l.secret), sums(l.s)),
  ),
}));
const node = (a: { hash: Uint8Array; s: bigint[] }, b: { hash: Uint8Array; s: bigint[] }) => ({
  hash: sha256(concatBytes(new Uint8Array([1]), a.hash, sums(a.s), b.hash, sums(b.s))),
  s: a.s.map((x, i) => x + (b.s[i] as bigint)),
});
const pad = { hash: sha256(new Uint8Array([2])), s: [0n, 0n, 0n, 0n] };
const [l0, l1, l2] = leaves as [(typeof leaves)[0], (typeof leaves)[0], (typeof leaves)[0]];
const left = node({ hash: l0.hash, s: l0.s }, { hash: l1.hash, s: l1.s });
const right = node({ hash: l2.hash, s: l2.s }, pad);
const top = node(left, right);
const secretKey = ed25519.utils.randomSecretKey();
const totals = {
  balance: String(top.s[0]),
  earn: String(top.s[1]),
  smart: String(top.s[2]),
  loan: String(top.s[3]),
};
const figures = {
  treeId,
  takenAt: '2027-01-01T00:00:01.000Z',
  rootHash: bytesToHex(top.hash),
  leafCount: 3,
  totals,
};
const message = proofMessage(figures);
const root = {
  ...figures,
  day: '2027-01-01',
  asset: 'USDT',
  scale: 6,
  publicKey: bytesToHex(ed25519.getPublicKey(secretKey)),
  message,
  signature: bytesToHex(ed25519.sign(utf8ToBytes(message), secretKey)),
  assets: null,
};
const side = (n: { hash: Uint8Array; s: bigint[] }) => ({
  hash: bytesToHex(n.hash),
  sums: n.s.map(String) as [string, string, string, string],
});
const branchOf9: ProofBranchData = {
  root,
  leaf: {
    customerId: 9,
    secret: l2.secret,
    sums: { balance: '10', earn: '0', smart: '0', loan: '1' },
    index: 2,
    siblings: [side(pad), side(left)],
  },
};

describe('the page’s verifier', () => {
  it('accepts a branch that folds up to the signed root', () => {
    expect(verifyBranch(branchOf9, 9)).toEqual({ ok: true, steps: 2, rootHash: root.rootHash });
    const branchOf7: ProofBranchData = {
      root,
      leaf: {
        customerId: 7,
        secret: l0.secret,
        sums: { balance: '5000000', earn: '0', smart: '0', loan: '0' },
        index: 0,
        siblings: [side({ hash: l1.hash, s: l1.s }), side(right)],
      },
    };
    expect(verifyBranch(branchOf7, 7).ok).toBe(true);
  });

  it('refuses a negative sum, a changed figure, another customer’s leaf, a bad signature and no leaf', () => {
    const leaf = branchOf9.leaf as NonNullable<ProofBranchData['leaf']>;
    const negative = {
      ...branchOf9,
      leaf: {
        ...leaf,
        siblings: [
          { ...side(pad), sums: ['-1', '0', '0', '0'] as [string, string, string, string] },
          side(left),
        ],
      },
    };
    expect(verifyBranch(negative, 9)).toEqual({ ok: false, reason: 'negative' });
    expect(
      verifyBranch({ ...branchOf9, leaf: { ...leaf, sums: { ...leaf.sums, balance: '11' } } }, 9),
    ).toEqual({
      ok: false,
      reason: 'root',
    });
    expect(verifyBranch(branchOf9, 8)).toEqual({ ok: false, reason: 'customer' });
    expect(verifyBranch({ ...branchOf9, leaf: { ...leaf, customerId: 8 } }, 8)).toEqual({
      ok: false,
      reason: 'root',
    });
    // The signature's last byte changed (a random key's signature may end in 00 already).
    const flipped = root.signature.endsWith('00') ? '01' : '00';
    const forged = { ...root, signature: `${root.signature.slice(0, 126)}${flipped}` };
    expect(verifyBranch({ ...branchOf9, root: forged }, 9)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyBranch({ ...branchOf9, root: { ...root, totals: { ...totals, balance: '1' } } }, 9).ok).toBe(
      false,
    );
    expect(verifyBranch({ root, leaf: null }, 9)).toEqual({ ok: false, reason: 'no_leaf' });
  });
});
