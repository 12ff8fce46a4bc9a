// Proof of liabilities: building the day's tree of 1,000,000 accounts (leaf secrets, leaf hashes,
// sums, every level), the size of one branch, and the time the page's verifier
// (apps/web/src/features/proofs/verify.ts, the code the browser runs) takes to check it; beside
// the peer figure of the same run: hashing 1,000,000 leaf-sized inputs alone with node:crypto's
// one-shot `hash` (the fastest SHA-256 node:crypto has, the floor under any such tree).
import { hash, randomBytes } from 'node:crypto';
import { proofMessage } from '@swx/contract';
import { rootSigner } from '../apps/server/src/modules/proofs/proofs.sign.ts';
import {
  branchBytes,
  branchOf,
  buildTree,
  type Leaf,
  leafSecret,
  PROOF_LINES,
  treeIdOf,
} from '../apps/server/src/modules/proofs/proofs.tree.ts';
import { verifyBranch } from '../apps/web/src/features/proofs/verify.ts';

const N = Number(process.env.PROOF_ACCOUNTS ?? 1_000_000);
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

const leaves: Leaf[] = Array.from({ length: N }, (_, i) => ({
  customerId: i + 1,
  sums: [
    BigInt(1_000_000 + ((i * 7919) % 5_000_000_000)),
    BigInt(i % 3) * 1_000n,
    BigInt(i % 5),
    BigInt(i % 7) * 10n,
  ],
}));
const key = randomBytes(32);
const treeId = treeIdOf('2027-06-01', 'USDT');

// The peer: the leaves' hashes alone, the floor under any such tree.
let start = process.hrtime.bigint();
const input = Buffer.alloc(1 + 40 + 32 + 64);
for (let i = 0; i < N; i++) {
  input.writeUInt32BE(i, 1);
  hash('sha256', input, 'buffer');
}
const peerMs = ms(start);

start = process.hrtime.bigint();
const { tree, order } = buildTree(treeId, key, leaves);
const buildMs = ms(start);

const signer = rootSigner(randomBytes(32));
const totals = Object.fromEntries(PROOF_LINES.map((l, i) => [l, String(tree.root.sums[i])])) as Record<
  (typeof PROOF_LINES)[number],
  string
>;
const figures = {
  treeId,
  takenAt: '2027-06-01T00:00:00.000Z',
  rootHash: tree.root.hash.toString('hex'),
  leafCount: N,
  totals,
};
const message = proofMessage(figures);
const root = {
  ...figures,
  day: '2027-06-01',
  asset: 'USDT',
  scale: 6,
  publicKey: signer.publicKey,
  message,
  signature: signer.sign(message),
  assets: null,
};
const position = Math.floor(N / 3);
const mine = leaves[order[position] as number] as Leaf;
const branch = branchOf(tree, position);
const data = {
  root,
  leaf: {
    customerId: mine.customerId,
    secret: leafSecret(key, treeId, mine.customerId).toString('hex'),
    sums: Object.fromEntries(PROOF_LINES.map((l, i) => [l, String(mine.sums[i])])) as typeof totals,
    index: branch.index,
    siblings: branch.siblings,
  },
};
const RUNS = 200;
let verdict = verifyBranch(data, mine.customerId);
start = process.hrtime.bigint();
for (let i = 0; i < RUNS; i++) verdict = verifyBranch(data, mine.customerId);
const verifyMs = ms(start) / RUNS;
if (!verdict.ok) throw new Error(`the branch did not verify: ${verdict.reason}`);

const json = JSON.stringify(data.leaf).length;
console.log(`proof of liabilities, ${N.toLocaleString('en')} accounts`);
console.log(
  `  build the tree (secrets, leaves, ${tree.levels.length} levels): ${(buildMs / 1000).toFixed(2)} s   (aim < 10 s)`,
);
console.log(
  `  peer: ${N.toLocaleString('en')} SHA-256 of leaf-sized inputs alone: ${(peerMs / 1000).toFixed(2)} s`,
);
console.log(
  `  one branch: ${branch.siblings.length} siblings, ${branchBytes(branch)} bytes binary (aim < 2 KB), ${json} bytes as JSON`,
);
console.log(
  `  verify one branch with the page's verifier (hashes, sums, Ed25519): ${verifyMs.toFixed(2)} ms (mean of ${RUNS})`,
);
