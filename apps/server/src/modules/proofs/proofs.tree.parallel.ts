import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  buildTree,
  emptyLevel,
  HASH,
  type Leaf,
  type Level,
  NegativeSumError,
  parentRange,
  SUMS,
  secretOrder,
  type Tree,
  treeOfLevels,
  writeSums,
} from './proofs.tree.ts';
import type { TreeAnswer, TreeTask, WireLevel } from './proofs.tree.worker.ts';

/**
 * `buildTree` on worker threads: the same tree, node for node (a test compares them), built with
 * every core the machine has and off the main thread, so the server keeps answering while the day's
 * proof is made. The figures are checked and encoded on the main thread; the threads make each
 * customer's secret and leaf hash, and each wide level, in slices of memory shared with it; the
 * main thread orders the leaves by secret and folds the narrow top levels.
 */
export type ParallelOptions = {
  /** Threads to use (default: the machine's parallelism, at least 2). */
  threads?: number;
  /** Fewer leaves than this are built on the main thread (default 20,000). */
  minLeaves?: number;
  /** A level of fewer parent nodes than this is folded on the main thread (default 4,096). */
  minLevel?: number;
};

const shared = (bytes: number) => new SharedArrayBuffer(Math.max(bytes, 1));
const wire = (l: Level): WireLevel => ({ hashes: l.hashes, sums: l.sums, count: l.count });

class Threads {
  private readonly workers: Worker[];
  constructor(count: number) {
    this.workers = Array.from(
      { length: count },
      () => new Worker(new URL('./proofs.tree.worker.ts', import.meta.url)),
    );
  }
  get count(): number {
    return this.workers.length;
  }
  /** Splits `n` items into one slice a thread and waits for all. */
  async each(n: number, task: (from: number, to: number) => TreeTask): Promise<void> {
    const size = Math.ceil(n / this.workers.length);
    await Promise.all(
      this.workers.map((worker, i) => this.run(worker, task(i * size, Math.min(n, (i + 1) * size)))),
    );
  }
  private run(worker: Worker, task: TreeTask): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        worker.off('message', done);
        reject(error);
      };
      const done = (answer: TreeAnswer) => {
        worker.off('error', fail);
        if (answer.ok) resolve();
        else reject(answer.negative ? new NegativeSumError(answer.message, null) : new Error(answer.message));
      };
      worker.once('message', done);
      worker.once('error', fail);
      worker.postMessage(task);
    });
  }
  close(): Promise<number[]> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Each leaf's secret and hash, in the customers' order, by the threads. */
async function hashLeaves(threads: Threads, treeId: string, key: Buffer, leaves: readonly Leaf[]) {
  const n = leaves.length;
  const ids = new Float64Array(shared(n * 8));
  const sums = Buffer.from(shared(n * SUMS));
  leaves.forEach((leaf, i) => {
    ids[i] = leaf.customerId;
    writeSums(sums, i * SUMS, leaf.sums, leaf.customerId);
  });
  const secrets = Buffer.from(shared(n * HASH));
  const hashes = Buffer.from(shared(n * HASH));
  const keyCopy = new Uint8Array(key);
  await threads.each(n, (from, to) => ({
    kind: 'leaves',
    treeId,
    key: keyCopy,
    ids,
    sums,
    secrets,
    hashes,
    from,
    to,
  }));
  return { sums, secrets, hashes };
}

/** Folds `bottom` to its root: wide levels by the threads, narrow ones here. */
async function foldLevels(threads: Threads, bottom: Level, minLevel: number): Promise<Level[]> {
  const levels = [bottom];
  let top = bottom;
  while (top.count > 1) {
    const below = top;
    const above = emptyLevel(Math.ceil(below.count / 2), shared);
    if (above.count < minLevel) parentRange(below, above, 0, above.count);
    else
      await threads.each(above.count, (from, to) => ({
        kind: 'level',
        below: wire(below),
        above: wire(above),
        from,
        to,
      }));
    levels.push(above);
    top = above;
  }
  return levels;
}

export async function buildTreeParallel(
  treeId: string,
  key: Buffer,
  leaves: readonly Leaf[],
  options: ParallelOptions = {},
): Promise<{ tree: Tree; order: number[] }> {
  if (leaves.length < (options.minLeaves ?? 20_000)) return buildTree(treeId, key, leaves);
  const threads = new Threads(options.threads ?? Math.max(2, availableParallelism()));
  try {
    const { sums, secrets, hashes } = await hashLeaves(threads, treeId, key, leaves);
    const order = secretOrder(secrets, leaves.length);
    const bottom = emptyLevel(leaves.length, shared);
    order.forEach((at, position) => {
      hashes.copy(bottom.hashes, position * HASH, at * HASH, at * HASH + HASH);
      sums.copy(bottom.sums, position * SUMS, at * SUMS, at * SUMS + SUMS);
    });
    const levels = await foldLevels(threads, bottom, options.minLevel ?? 4_096);
    return { tree: treeOfLevels(treeId, levels), order };
  } finally {
    await threads.close();
  }
}
