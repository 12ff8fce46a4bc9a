import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database (PGlite) is a folder that exactly one process may open: a second process
 * opening it works on its own copy in memory and its writes are lost to the first. So the process
 * that opens DATA_DIR/pglite first takes DATA_DIR/swx.lock, created with O_EXCL and holding its pid;
 * a lock whose pid is no longer alive (the holder crashed) is stale and taken over. Operator
 * commands reach a running server through its control socket (platform/control.ts) instead.
 */
export const LOCK_FILE = 'swx.lock';

export type LockRole = 'server' | 'cli';
export type LockHolder = { pid: number; role: LockRole; startedAt: string };

export class DataDirBusyError extends Error {
  readonly holder: LockHolder;
  readonly dataDir: string;
  constructor(dataDir: string, holder: LockHolder) {
    super(
      `The data folder ${dataDir} is in use by ${holder.role === 'server' ? 'the SWX server' : 'an operator command'} ` +
        `(process ${holder.pid}, since ${holder.startedAt}). The embedded database allows one process at a time; ` +
        (holder.role === 'server'
          ? 'operator commands (npm run staff:create, reconcile, audit:verify) run through the running server.'
          : 'wait until that command has finished, then try again.'),
    );
    this.name = 'DataDirBusyError';
    this.holder = holder;
    this.dataDir = dataDir;
  }
}

export type DataLock = { readonly path: string; release(): void };

/** The locks this process holds (a second open in the same process is refused too). */
const held = new Map<string, LockHolder>();

/** Whether a process with this id exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || (value.role !== 'server' && value.role !== 'cli')) return null;
    return { pid: value.pid, role: value.role, startedAt: String(value.startedAt ?? '') };
  } catch {
    return null;
  }
}

/** The live holder of a data folder's lock, or null when it is free or stale. */
export function lockHolder(dataDir: string): LockHolder | null {
  const own = held.get(join(dataDir, LOCK_FILE));
  if (own) return own;
  let text: string;
  try {
    text = readFileSync(join(dataDir, LOCK_FILE), 'utf8');
  } catch {
    return null;
  }
  const holder = parseHolder(text);
  // A lock naming our own pid that this process did not take (not in `held`) was left by an
  // earlier process that had the same pid (a container restarted: pid 1 again).
  if (!holder || holder.pid === process.pid || !processAlive(holder.pid)) return null;
  return holder;
}

/** Takes the data folder's lock for this process, or throws DataDirBusyError naming the holder. */
export function acquireDataLock(dataDir: string, role: LockRole): DataLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, role, startedAt: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder) throw new DataDirBusyError(dataDir, holder);
      // Stale (its process is gone) or unreadable: remove it and try again.
      try {
        unlinkSync(path);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
      continue;
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    held.set(path, mine);
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        held.delete(path);
        try {
          // Only our own lock: never remove one another process has taken since.
          if (parseHolder(readFileSync(path, 'utf8'))?.pid === process.pid) unlinkSync(path);
        } catch {
          // Already gone.
        }
      },
    };
  }
  throw new Error(`could not take the lock ${path}`);
}
