import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The size ratchet (scripts/size-ratchet.mjs): no function over 70 lines, no file over 500, but for
 * the offenders recorded in scripts/size-baseline.json, which may only shrink. The checker is a
 * plain Node script, loaded here by its URL (the server's tsconfig types no JavaScript).
 */
type Offender = { key: string; where: string; lines: number };
type Failure = Offender & {
  kind: 'function' | 'file';
  status: 'new' | 'grown';
  limit: number;
  baseline: number | null;
};
type Baseline = { functions: Record<string, number>; files: Record<string, number> };
type Result = {
  scanned: number;
  functions: Offender[];
  files: Offender[];
  failures: Failure[];
  removable: { kind: string; key: string; baseline: number }[];
  ok: boolean;
};
type Ratchet = {
  check(options?: { root?: string; files?: string[]; baseline?: Baseline }): Result;
  nextBaseline(result: Result, baseline: Baseline, reset: boolean): Baseline;
  describeFailure(failure: Failure): string;
};

const script = resolve(import.meta.dirname, '../../../scripts/size-ratchet.mjs');
const ratchet = (await import(pathToFileURL(script).href)) as Ratchet;

const EMPTY: Baseline = { functions: {}, files: {} };

/** A function of `lines` lines in all. */
function fn(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`export function ${name}() {`, ...body, '}'].join('\n');
}

describe('the size ratchet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'size-ratchet-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a file of exactly `total` lines holding the given code. */
  function source(file: string, code: string, total: number): string {
    const lines = code.split('\n');
    const padded = [...lines, ...Array.from({ length: total - lines.length }, (_, i) => `// ${i}`)];
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), `${padded.join('\n')}\n`);
    return file;
  }

  it('finds no new or grown offender in the repository', { timeout: 60_000 }, () => {
    const result = ratchet.check();
    expect(result.scanned).toBeGreaterThan(100);
    const report = result.failures.map((f) => ratchet.describeFailure(f));
    expect(
      report,
      `size ratchet (split them, or see scripts/size-ratchet.mjs):\n${report.join('\n')}`,
    ).toEqual([]);
  });

  it('reports a 71-line function and a 501-line file as new offenders', () => {
    const file = source('src/big.ts', `${fn('short', 70)}\n${fn('long', 71)}`, 501);
    const result = ratchet.check({ root: dir, files: [file], baseline: EMPTY });
    expect(result.ok).toBe(false);
    expect(result.failures.map((f) => [f.status, f.kind, f.key, f.lines, f.limit])).toEqual([
      ['new', 'function', 'src/big.ts long', 71, 70],
      ['new', 'file', 'src/big.ts', 501, 500],
    ]);
    expect(result.failures[0]?.where).toBe('src/big.ts:71 long');
    expect(ratchet.describeFailure(result.failures[0] as Failure)).toBe(
      'new function: src/big.ts:71 long is 71 lines (limit 70, not in the baseline)',
    );
  });

  it('lets a recorded offender stay or shrink, never grow; names repeated offenders in order', () => {
    const code = [
      fn('twice', 80),
      'export class Box {',
      '  constructor() {',
      ...Array.from({ length: 70 }, (_, i) => `    this.toString(${i});`),
      '  }',
      '}',
      'export const arrow = () => {',
      ...Array.from({ length: 70 }, (_, i) => `  void ${i};`),
      '};',
      fn('twice', 90),
    ].join('\n');
    const file = source('src/kept.ts', code, 520);
    const baseline: Baseline = {
      functions: {
        'src/kept.ts twice': 80,
        'src/kept.ts constructor': 72,
        'src/kept.ts arrow': 72,
        'src/kept.ts twice#2': 89,
        'src/kept.ts gone': 100,
      },
      files: { 'src/kept.ts': 530 },
    };
    const result = ratchet.check({ root: dir, files: [file], baseline });
    expect(result.functions.map((f) => [f.key, f.lines])).toEqual([
      ['src/kept.ts twice#2', 90],
      ['src/kept.ts twice', 80],
      ['src/kept.ts arrow', 72],
      ['src/kept.ts constructor', 72],
    ]);
    expect(result.failures.map((f) => `${f.status} ${f.key} ${f.lines} > ${f.baseline}`)).toEqual([
      'grown src/kept.ts twice#2 90 > 89',
    ]);
    expect(result.removable.map((r) => r.key)).toEqual(['src/kept.ts gone']);
    // --update lowers the file's entry, drops the gone one, and neither adds nor raises any.
    expect(ratchet.nextBaseline(result, baseline, false)).toEqual({
      functions: {
        'src/kept.ts arrow': 72,
        'src/kept.ts constructor': 72,
        'src/kept.ts twice': 80,
        'src/kept.ts twice#2': 89,
      },
      files: { 'src/kept.ts': 520 },
    });
  });

  it('skips a file whose header says it is data', () => {
    const file = source('src/table.ts', `// size-ratchet: data\n${fn('rows', 200)}`, 900);
    const result = ratchet.check({ root: dir, files: [file], baseline: EMPTY });
    expect(result).toMatchObject({ ok: true, functions: [], files: [] });
  });
});
