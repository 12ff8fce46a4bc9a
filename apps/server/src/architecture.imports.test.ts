import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLOORS, MODULES as LISTED } from './modules.ts';

/**
 * The rule of the house for the server's modules (ARCHITECTURE.md, "Module floors"): products
 * stand side by side on one base. A product imports the platform, base modules and the product
 * kit, never another product; the base never imports a product, the kit or a composition module;
 * nothing imports a composition module; and no two modules import each other, directly or round
 * a longer circle. Tests compose modules as the app does and are not checked; `*.testing.ts`
 * helpers are.
 */
const KINDS = {
  ...FLOORS,
  // A product is any module of the list built with the kit's `defineProduct`.
  product: LISTED.filter((module) => 'product' in module).map((module) => module.name),
};
type Kind = keyof typeof KINDS;
void (KINDS satisfies Record<Kind, readonly string[]>);

const kindOf = new Map<string, Kind>(
  (Object.entries(KINDS) as [Kind, readonly string[]][]).flatMap(([kind, names]) =>
    names.map((name) => [name, kind] as const),
  ),
);

/** Which kinds a module of each kind may import (besides itself and the platform). */
const MAY_IMPORT: Record<Kind, readonly Kind[]> = {
  base: ['base'],
  kit: ['base'],
  product: ['base', 'kit'],
  composition: ['base', 'kit', 'product'],
};

export type Edge = { from: string; to: string; file: string };

/** Every forbidden edge between modules, and every circle, in words. */
export function violations(edges: readonly Edge[], kinds: ReadonlyMap<string, Kind> = kindOf): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const from = kinds.get(edge.from);
    const to = kinds.get(edge.to);
    if (!from || !to) {
      found.push(
        `${edge.file}: module ${!from ? edge.from : edge.to} has no floor (add it to FLOORS in src/modules.ts, or define it with defineProduct)`,
      );
      continue;
    }
    if (!MAY_IMPORT[from].includes(to))
      found.push(`${edge.file}: ${from} module ${edge.from} imports ${to} module ${edge.to}`);
  }
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!graph.has(edge.from)) graph.set(edge.from, new Set());
    graph.get(edge.from)?.add(edge.to);
  }
  for (const circle of circles(graph)) found.push(`circle: ${circle.join(' -> ')}`);
  return found;
}

/** The circles of a graph, each once, as the path that closes it. */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const found = new Map<string, string[]>();
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const circle = path.slice(at);
        const key = [...circle].sort().join(',');
        if (!found.has(key)) found.set(key, [...circle, next]);
      } else if (path.length < 12) visit(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return [...found.values()];
}

const SRC = dirname(fileURLToPath(import.meta.url));
const MODULES = join(SRC, 'modules');
const IMPORT = /(?:import|export)\s[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The module-to-module imports of the server's source today. */
export function moduleEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(MODULES)) {
    const from = relative(MODULES, file).split('/')[0] ?? '';
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = match[1] ?? match[2] ?? '';
      if (!target.startsWith('.')) continue;
      const path = relative(MODULES, resolve(dirname(file), target));
      if (path.startsWith('..')) continue; // the platform
      const to = path.split('/')[0] ?? '';
      if (to !== from) edges.push({ from, to, file: relative(SRC, file) });
    }
  }
  return edges;
}

describe('module floors', () => {
  it('every module has a floor, and no module imports what its floor forbids', () => {
    const present = readdirSync(MODULES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(present.filter((name) => !kindOf.has(name))).toEqual([]);
    expect(violations(moduleEdges())).toEqual([]);
  });

  it('the platform imports no module', () => {
    const platform = sourceFiles(join(SRC, 'platform')).filter((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].some((m) =>
        /(^|\/)modules\//.test(m[1] ?? m[2] ?? ''),
      ),
    );
    expect(platform.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('catches a product importing a product, a base importing a product, and a circle', () => {
    const found = violations([
      { from: 'smart', to: 'positions', file: 'smart/a.ts' },
      { from: 'kyc', to: 'loans', file: 'kyc/b.ts' },
      { from: 'staff', to: 'kyc', file: 'staff/c.ts' },
      { from: 'kyc', to: 'staff', file: 'kyc/d.ts' },
      { from: 'earn', to: 'desk', file: 'earn/e.ts' },
      { from: 'loans', to: 'products', file: 'loans/f.ts' },
    ]);
    expect(found).toEqual([
      'smart/a.ts: product module smart imports product module positions',
      'kyc/b.ts: base module kyc imports product module loans',
      'earn/e.ts: product module earn imports composition module desk',
      'circle: kyc -> staff -> kyc',
    ]);
  });
});
