import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, DataDirBusyError, LOCK_FILE, lockHolder } from './datalock.ts';

describe('the data folder lock', () => {
  const folders: string[] = [];
  const children: ChildProcess[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'swx-lock-'));
    folders.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is exclusive: a second taker is refused until the first releases', () => {
    const dir = folder();
    const first = acquireDataLock(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      role: 'server',
    });
    expect(() => acquireDataLock(dir, 'cli')).toThrow(DataDirBusyError);
    expect(lockHolder(dir)).toMatchObject({ pid: process.pid, role: 'server' });
    first.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(lockHolder(dir)).toBeNull();
    const second = acquireDataLock(dir, 'cli');
    expect(lockHolder(dir)).toMatchObject({ role: 'cli' });
    second.release();
  });

  it('refuses a folder a live process holds, naming it', () => {
    const dir = folder();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: child.pid, role: 'server', startedAt: '2026-01-01T00:00:00.000Z' }),
    );
    let refusal: unknown;
    try {
      acquireDataLock(dir, 'cli');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirBusyError);
    expect((refusal as Error).message).toContain(`in use by the SWX server (process ${child.pid}`);
    // The holder's lock is left alone.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(child.pid);
  });

  it('takes over a stale lock whose process is gone', () => {
    const dir = folder();
    const gone = spawnSync(process.execPath, ['-e', 'process.pid'], { encoding: 'utf8' });
    expect(gone.status).toBe(0);
    const deadPid = gone.pid as number;
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid, role: 'server', startedAt: 'x' }));
    expect(lockHolder(dir)).toBeNull();
    const lock = acquireDataLock(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('release never removes a lock another process has taken since', () => {
    const dir = folder();
    const lock = acquireDataLock(dir, 'cli');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    const theirs = JSON.stringify({ pid: child.pid, role: 'server', startedAt: 'x' });
    writeFileSync(join(dir, LOCK_FILE), theirs);
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(theirs);
  });
});
