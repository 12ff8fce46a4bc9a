import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/**
 * Where a browser test file spends the machine (TEST_PROFILE=<file>: one JSON line per test and one
 * per file set-up, appended): wall time, and the CPU seconds of the worker's Chromium, of its test
 * servers and of the worker itself (read off /proc, the processes each started included), beside
 * the contexts opened and the axe runs made. `node scripts/profile-report.mjs <file>` sums it up.
 * Without TEST_PROFILE nothing is read or written.
 */
const target = process.env.TEST_PROFILE;

type Cpu = { chromium: number; server: number; other: number; worker: number };
type Counts = { contexts: number; axe: number; axeMs: number; settledMs: number };

const counts: Counts = { contexts: 0, axe: 0, axeMs: 0, settledMs: 0 };

/** Counts a context opened (when profiling). */
export function countContext(): void {
  counts.contexts++;
}

/** Times an axe run or a settle (when profiling). */
export async function timed<T>(what: 'axe' | 'settled', work: () => Promise<T>): Promise<T> {
  if (!target) return work();
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    const ms = performance.now() - t0;
    if (what === 'axe') {
      counts.axe++;
      counts.axeMs += ms;
    } else counts.settledMs += ms;
  }
}

export const TICK = 100; // USER_HZ on Linux

type Proc = { pid: number; ppid: number; ticks: number; own: number; command: string };

/** Every process's CPU ticks (its own, and with what its exited children left), parent and command line. */
export function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const own = Number(fields[11]) + Number(fields[12]);
      const reaped = Number(fields[13]) + Number(fields[14]);
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      all.set(Number(name), {
        pid: Number(name),
        ppid: Number(fields[1]),
        ticks: own + reaped,
        own,
        command,
      });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** CPU seconds of this worker and everything it started, by kind. */
function cpuNow(): Cpu {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all.values()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const subtree = (p: Proc): number =>
    p.ticks + (children.get(p.pid) ?? []).reduce((sum, child) => sum + subtree(child), 0);
  const self = all.get(process.pid);
  const cpu: Cpu = { chromium: 0, server: 0, other: 0, worker: 0 };
  if (!self) return cpu;
  // Children that already exited are in the worker's own reaped count: counted as its "other".
  cpu.worker = self.own / TICK;
  cpu.other = (self.ticks - self.own) / TICK;
  for (const child of children.get(process.pid) ?? []) {
    const seconds = subtree(child) / TICK;
    if (/chrom/.test(child.command)) cpu.chromium += seconds;
    else if (child.command.includes('main.ts')) cpu.server += seconds;
    else cpu.other += seconds;
  }
  return cpu;
}

function record(line: Record<string, unknown>): void {
  if (target) appendFileSync(target, `${JSON.stringify(line)}\n`);
}

/** Profiles each test of the file (and its set-up) when TEST_PROFILE is set. */
export function profileTheFile(): void {
  if (!target) return;
  let mark = { at: 0, cpu: cpuNow(), counts: { ...counts } };
  const since = () => {
    const cpu = cpuNow();
    const line = {
      seconds: (performance.now() - mark.at) / 1000,
      chromium: cpu.chromium - mark.cpu.chromium,
      server: cpu.server - mark.cpu.server,
      other: cpu.other - mark.cpu.other,
      worker: cpu.worker - mark.cpu.worker,
      contexts: counts.contexts - mark.counts.contexts,
      axe: counts.axe - mark.counts.axe,
      axeSeconds: (counts.axeMs - mark.counts.axeMs) / 1000,
      settledSeconds: (counts.settledMs - mark.counts.settledMs) / 1000,
    };
    mark = { at: performance.now(), cpu, counts: { ...counts } };
    return line;
  };
  const file = () => basename(expect.getState().testPath ?? '');
  beforeAll(() => {
    mark = { at: performance.now(), cpu: cpuNow(), counts: { ...counts } };
  });
  beforeEach(() => {
    record({ file: file(), test: '(set-up and before the test)', ...since() });
  });
  afterEach(() => {
    record({ file: file(), test: expect.getState().currentTestName ?? '', ...since() });
  });
  afterAll(() => {
    record({ file: file(), test: '(after the last test)', ...since() });
  });
}
