// Proof of liabilities: building the day's tree of 1,000,000 accounts (leaf secrets, leaf hashes,
// sums, every level), the size of one branch, and the time the page's verifier
// (apps/web/src/features/proofs/verify.ts, the code the browser runs) takes to check it; beside
// the peer figure of the same run: hashing 1,000,000 leaf-sized inputs alone with node:crypto's
// one-shot `hash` (the fastest SHA-256 node:crypto has, the floor under any such tree on one
// thread). The tree is built as the daily job builds it (worker threads, one a core) and, for
// comparison, on the main thread alone. The branch's verification is timed where the customer runs
// it, in Debian's Chromium (headless): verify.ts bundled by Vite for the web build's target
// (es2022, minified), loaded into a blank page and run there on the same branch, each run timed
// with the page's performance.now() (which Chromium coarsens to 0.1 ms on a page that is not
// cross-origin isolated); beside it, its peer, the same source run by this Node. Both as min /
// median / max of RUNS single verifications after a warm-up.
// Environment: PROOF_ACCOUNTS (default 1,000,000), CHROME_PATH (default /usr/bin/chromium).
import { hash, randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proofMessage } from '@swx/contract';
import { chromium } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { rootSigner } from '../apps/server/src/modules/proofs/proofs.sign.ts';
import { buildTreeParallel } from '../apps/server/src/modules/proofs/proofs.tree.parallel.ts';
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
const alone = buildTree(treeId, key, leaves);
const aloneMs = ms(start);

// The service's path: the same tree on worker threads (one a core).
start = process.hrtime.bigint();
const { tree, order } = await buildTreeParallel(treeId, key, leaves);
const buildMs = ms(start);
if (!tree.root.hash.equals(alone.tree.root.hash)) throw new Error('the threads built another tree');

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
const spread = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (i: number) => (sorted[i] ?? Number.NaN).toFixed(3);
  return `min ${at(0)} / median ${at(sorted.length >> 1)} / max ${at(sorted.length - 1)} ms`;
};
let verdict = verifyBranch(data, mine.customerId);
for (let i = 0; i < 20; i++) verifyBranch(data, mine.customerId);
const nodeTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  start = process.hrtime.bigint();
  verdict = verifyBranch(data, mine.customerId);
  nodeTimes.push(ms(start));
}
if (!verdict.ok) throw new Error(`the branch did not verify: ${verdict.reason}`);

// The browser: the page's verifier as the web build bundles it, run in Chromium on the same branch.
const bundled = await build({
  configFile: false,
  logLevel: 'warn',
  root: fileURLToPath(new URL('../apps/web/', import.meta.url)),
  build: {
    // In memory only: nothing is written, the app's dist/ is left as it is.
    write: false,
    emptyOutDir: false,
    copyPublicDir: false,
    outDir: join(tmpdir(), 'swx-proofs-bench'),
    target: 'es2022',
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('../apps/web/src/features/proofs/verify.ts', import.meta.url)),
      formats: ['iife'],
      name: 'pageVerifier',
    },
  },
});
const output = (Array.isArray(bundled) ? bundled[0] : bundled) as Rolldown.RolldownOutput;
const script = output.output.find((item) => item.type === 'chunk')?.code;
if (!script) throw new Error('vite built no verifier');
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
let browserVersion = '';
let browserTimes: number[] = [];
let browserVerdict: unknown = null;
try {
  browserVersion = browser.version();
  const page = await browser.newPage();
  await page.setContent('<!doctype html><title>verify</title>');
  await page.addScriptTag({ content: script });
  const measured = await page.evaluate(
    ({ branch, customerId, runs }) => {
      const verify = (globalThis as unknown as { pageVerifier: { verifyBranch: typeof verifyBranch } })
        .pageVerifier.verifyBranch;
      let result = verify(branch, customerId);
      for (let i = 0; i < 20; i++) verify(branch, customerId);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const from = performance.now();
        result = verify(branch, customerId);
        times.push(performance.now() - from);
      }
      return { times, result };
    },
    { branch: data, customerId: mine.customerId, runs: RUNS },
  );
  browserTimes = measured.times;
  browserVerdict = measured.result;
} finally {
  await browser.close();
}
if (!(browserVerdict as { ok?: boolean } | null)?.ok)
  throw new Error(`the branch did not verify in the browser: ${JSON.stringify(browserVerdict)}`);

const json = JSON.stringify(data.leaf).length;
console.log(`proof of liabilities, ${N.toLocaleString('en')} accounts`);
console.log(
  `  build the tree (secrets, leaves, ${tree.levels.length} levels) on ${availableParallelism()} threads, as the daily job does: ${(buildMs / 1000).toFixed(2)} s   (aim < 10 s)`,
);
console.log(`  the same tree on the main thread alone: ${(aloneMs / 1000).toFixed(2)} s`);
console.log(
  `  peer: ${N.toLocaleString('en')} SHA-256 of leaf-sized inputs alone: ${(peerMs / 1000).toFixed(2)} s`,
);
console.log(
  `  one branch: ${branch.siblings.length} siblings, ${branchBytes(branch)} bytes binary (aim < 2 KB), ${json} bytes as JSON`,
);
console.log(
  `  verify one branch with the page's verifier (hashes, sums, Ed25519), ${RUNS} runs after a warm-up:`,
);
console.log(
  `    in the browser (Chromium ${browserVersion}, headless, bundle ${script.length.toLocaleString('en')} bytes): ${spread(browserTimes)}`,
);
console.log(`    peer, the same source in Node ${process.versions.node}: ${spread(nodeTimes)}`);
