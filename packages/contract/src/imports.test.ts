import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The contract's import graph: a base of primitives that the domain files build on, and no
 * circles. Base files import only base files; staff.ts (every staff call) and calls.ts (every
 * customer call) are the aggregates that import the domains, and no domain imports them back.
 * Static imports and re-exports only (`from './…'`, `import './…'`, `import type` included): the
 * dynamic `import()` of calls/load.ts loads a domain's calls lazily and is no part of the graph.
 */
const SRC = dirname(fileURLToPath(import.meta.url));

/** The base: primitives every other file may take, importing nothing but one another. */
const BASE = new Set([
  'ids.ts',
  'money.ts',
  'codes.ts',
  'languages.ts',
  'envelope.ts',
  'roles.ts',
  'staffBase.ts',
]);

type Graph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The relative .ts files a source imports, as paths under src/ (posix separators). */
function relativeImports(file: string, text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom|^\s*import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = posix.normalize(posix.join(posix.dirname(file), match[1] as string));
    if (target.endsWith('.ts')) found.add(target);
  }
  return [...found].sort();
}

function contractGraph(): Graph {
  const graph: Graph = new Map();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path).split('\\').join('/');
    graph.set(file, relativeImports(file, readFileSync(path, 'utf8')));
  }
  return graph;
}

/**
 * The knots of the graph (strongly connected components, Tarjan), each with one circle through it
 * as a path a → … → a and every file caught in it.
 */
function cycles(graph: Graph): { circle: string[]; files: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => ({
    circle: circleThrough(graph, new Set(component)),
    files: component.sort(),
  }));
}

/** One circle inside a strongly connected component: a breadth-first walk back to its first file. */
function circleThrough(graph: Graph, component: Set<string>): string[] {
  const start = [...component].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of graph.get(node) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe("the contract's import graph", () => {
  const graph = contractGraph();

  it('reads every source file and its imports', () => {
    expect(graph.get('staff.ts')).toContain('staffBase.ts');
    expect(graph.get('calls/wallet.ts')).toEqual(['calls/define.ts', 'ids.ts', 'wallet.ts']);
    expect(graph.get('messages/index.ts')).toEqual(['codes.ts', 'languages.ts']);
    for (const file of BASE) expect(graph.has(file), file).toBe(true);
  });

  it('has no circles', () => {
    const found = cycles(graph).map(
      ({ circle, files }) => `${circle.join(' → ')} (the knot: ${files.join(', ')})`,
    );
    expect(found, `import circles:\n${found.join('\n')}`).toEqual([]);
  });

  it('keeps the base apart: a base file imports only base files', () => {
    const wrong = [...BASE].flatMap((file) =>
      (graph.get(file) ?? []).filter((target) => !BASE.has(target)).map((target) => `${file} → ${target}`),
    );
    expect(wrong, `base files importing non-base files:\n${wrong.join('\n')}`).toEqual([]);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const circular: Graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(cycles(circular)).toEqual([
      { circle: ['d.ts', 'd.ts'], files: ['d.ts'] },
      { circle: ['a.ts', 'b.ts', 'c.ts', 'a.ts'], files: ['a.ts', 'b.ts', 'c.ts'] },
    ]);
    expect(
      relativeImports('calls/x.ts', "import type { A } from '../staff.ts';\nimport './side.ts';"),
    ).toEqual(['calls/side.ts', 'staff.ts']);
  });
});
