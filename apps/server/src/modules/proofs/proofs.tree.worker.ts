import { parentPort } from 'node:worker_threads';
import {
  encodedLeafHasher,
  HASH,
  type Level,
  leafSecrets,
  NegativeSumError,
  parentRange,
  SUMS,
} from './proofs.tree.ts';

/**
 * A thread of `buildTreeParallel` (proofs.tree.parallel.ts): it works on memory shared with the
 * main thread and answers each task with `{ ok }` or the error that refused it.
 */
export type TreeTask =
  | {
      kind: 'leaves';
      treeId: string;
      key: Uint8Array;
      ids: Float64Array;
      sums: Uint8Array;
      secrets: Uint8Array;
      hashes: Uint8Array;
      from: number;
      to: number;
    }
  | { kind: 'level'; below: WireLevel; above: WireLevel; from: number; to: number };
export type WireLevel = { hashes: Uint8Array; sums: Uint8Array; count: number };
export type TreeAnswer = { ok: true } | { ok: false; message: string; negative: boolean };

const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const level = (l: WireLevel): Level => ({ hashes: view(l.hashes), sums: view(l.sums), count: l.count });

/** Leaves `from`..`to` in the customers' order: each secret, then its leaf's hash. */
function leaves(task: Extract<TreeTask, { kind: 'leaves' }>): void {
  const secretOf = leafSecrets(view(task.key), task.treeId);
  const hashOf = encodedLeafHasher(task.treeId);
  const secrets = view(task.secrets);
  const hashes = view(task.hashes);
  for (let i = task.from; i < task.to; i++) {
    const id = task.ids[i] as number;
    const secret = secretOf(id);
    secret.copy(secrets, i * HASH);
    hashOf(id, secret, task.sums, i * SUMS).copy(hashes, i * HASH);
  }
}

parentPort?.on('message', (task: TreeTask) => {
  try {
    if (task.kind === 'leaves') leaves(task);
    else parentRange(level(task.below), level(task.above), task.from, task.to);
    parentPort?.postMessage({ ok: true } satisfies TreeAnswer);
  } catch (error) {
    parentPort?.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      negative: error instanceof NegativeSumError,
    } satisfies TreeAnswer);
  }
});
