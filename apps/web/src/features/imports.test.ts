import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house rule on imports between features, in the customer app (apps/web/src/features/<name>/)
 * and the back office (apps/admin/src/<name>/):
 * - a product never imports another product;
 * - a base feature imports no product and no composition;
 * - no two features import each other, directly or through others (no cycle).
 * A composition may import anything below it. What two products share lives below them: the web
 * app's ui/, app/ or a base feature; the back office's root files.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

type Kind = 'product' | 'base' | 'composition';

/** Every feature of both apps, by `<app>:<folder>`. A new folder is added here with its kind. */
const FEATURES: Record<string, Kind> = {
  'web:positions': 'product',
  'web:earn': 'product',
  'web:loans': 'product',
  'web:smart': 'product',
  'web:swap': 'product',
  'web:wallet': 'product',
  'web:custody': 'product',
  'web:invites': 'product',
  'web:nft': 'product',
  'web:account': 'base',
  'web:identity': 'base',
  'web:kyc': 'base',
  'web:uploads': 'base',
  'web:ledger': 'base',
  'web:market': 'base',
  'web:notices': 'base',
  'web:pricealerts': 'base',
  'web:help': 'base',
  'web:transfers': 'base',
  'web:proofs': 'base',
  'web:papers': 'base',
  'web:home': 'composition',
  'web:stats': 'composition',
  'web:content': 'composition',
  'web:operator': 'composition',
  'admin:earn': 'product',
  'admin:invites': 'product',
  'admin:nft': 'product',
  'admin:loans': 'product',
  'admin:smart': 'product',
  'admin:swap': 'product',
  'admin:wallet': 'product',
  'admin:alerts': 'base',
  'admin:fourEyes': 'base',
  'admin:help': 'base',
  'admin:operator': 'base',
  'admin:review': 'base',
  'admin:support': 'base',
};

/** Where each app keeps its features (a folder right under it), and its folders that are none. */
const AREAS = [
  { app: 'web', dir: 'apps/web/src/features', shared: [] as string[] },
  // The back office's texts, read by its root files (text.ts).
  { app: 'admin', dir: 'apps/admin/src', shared: ['locales'] },
];

type Edge = { from: string; to: string; file: string; specifier: string };

/** The feature a file (a path from the repository's root, with /) belongs to, or null. */
function featureOf(path: string): string | null {
  for (const { app, dir, shared } of AREAS) {
    if (!path.startsWith(`${dir}/`)) continue;
    const [name, ...rest] = path.slice(dir.length + 1).split('/');
    if (!name || rest.length === 0 || shared.includes(name)) return null;
    return `${app}:${name}`;
  }
  return null;
}

const SPECIFIER =
  /\b(?:import|export)\s+(?:type\s+)?(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|\bimport\.meta\.glob(?:<[^>]*>)?\(\s*['"]([^'"]+)['"]|@import\s+(?:url\(\s*)?['"]([^'"]+)['"]/g;

/**
 * What a module or stylesheet imports: `import` (type or not, one line or several), `export …
 * from`, a bare import (a stylesheet), `import()`, `import.meta.glob` and CSS `@import`. Lines
 * that are comments are skipped.
 */
function specifiersOf(source: string): string[] {
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line))
    .join('\n');
  return [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
}

/** The imports from one feature into another among these files (relative specifiers only). */
function edgesOf(files: readonly { path: string; source: string }[]): Edge[] {
  const edges: Edge[] = [];
  for (const { path, source } of files) {
    const from = featureOf(path);
    if (!from) continue;
    for (const specifier of specifiersOf(source)) {
      if (!specifier.startsWith('.')) continue;
      const to = featureOf(posix.join(posix.dirname(path), specifier));
      if (to && to !== from) edges.push({ from, to, file: path, specifier });
    }
  }
  return edges;
}

/** A path of imports from `start` to `goal`, or null when there is none. */
function pathBetween(edges: readonly Edge[], start: string, goal: string): string[] | null {
  const before = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === goal) {
      const path = [goal];
      while (path[0] !== start) path.unshift(before.get(path[0] ?? start) ?? start);
      return path;
    }
    for (const edge of edges)
      if (edge.from === next && !before.has(edge.to)) {
        before.set(edge.to, next);
        queue.push(edge.to);
      }
  }
  return null;
}

/** Each import that breaks the rule, worded with its file, its specifier and why. */
function forbiddenImports(edges: readonly Edge[], kinds: Record<string, Kind>): string[] {
  const problems = new Set<string>();
  for (const edge of edges) {
    const at = `${edge.file} imports '${edge.specifier}'`;
    const from = kinds[edge.from];
    const to = kinds[edge.to];
    for (const [name, kind] of [
      [edge.from, from],
      [edge.to, to],
    ] as const)
      if (!kind) problems.add(`${at}: ${name} is not classified (product, base or composition)`);
    if (from === 'product' && to === 'product')
      problems.add(`${at}: product ${edge.from} -> product ${edge.to}`);
    if (from === 'base' && (to === 'product' || to === 'composition'))
      problems.add(`${at}: base ${edge.from} -> ${to} ${edge.to}`);
    const back = pathBetween(edges, edge.to, edge.from);
    if (back) problems.add(`${at}: cycle ${[edge.from, ...back].join(' -> ')}`);
  }
  return [...problems];
}

/** The non-test modules and stylesheets of both apps' feature areas, with their text. */
function sources(): { path: string; source: string }[] {
  return AREAS.flatMap(({ dir }) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter(
        (entry) => entry.isFile() && /\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
      )
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .map((path) => ({ path, source: readFileSync(join(ROOT, path), 'utf8') })),
  );
}

describe('imports between features', () => {
  const files = sources();

  it('classify every feature folder as a product, a base feature or a composition', () => {
    const found = new Set(files.map((file) => featureOf(file.path)).filter((name) => name !== null));
    expect([...found].filter((name) => !(name in FEATURES))).toEqual([]);
    expect(Object.keys(FEATURES).filter((name) => !found.has(name))).toEqual([]);
  });

  it('keep the rule: no product -> product, no base -> product or composition, no cycle', () => {
    expect(forbiddenImports(edgesOf(files), FEATURES)).toEqual([]);
  });

  it('are read in every form a module or stylesheet writes them', () => {
    const source = [
      "import { a } from '../positions/ticket.ts';",
      "import type { B } from '../../features/wallet/queries.ts';",
      'import {',
      '  type C,',
      '  d,',
      '} from "../market/live.ts";',
      "export { e } from '../ledger/queries.ts';",
      "export * from '../kyc/texts.ts';",
      "import '../wallet/wallet.css';",
      "const F = lazy(() => import('../positions/OrderTicket.tsx'));",
      "const texts = import.meta.glob<Texts>('../positions/locales/*.json', { import: 'default' });",
      "@import '../home/home.css';",
      "// import { g } from '../home/Home.tsx';",
      "/** import('../stats/queries.ts') */",
      "export const h = 'from';",
    ].join('\n');
    expect(specifiersOf(source)).toEqual([
      '../positions/ticket.ts',
      '../../features/wallet/queries.ts',
      '../market/live.ts',
      '../ledger/queries.ts',
      '../kyc/texts.ts',
      '../wallet/wallet.css',
      '../positions/OrderTicket.tsx',
      '../positions/locales/*.json',
      '../home/home.css',
    ]);
    expect(
      edgesOf([
        { path: 'apps/web/src/features/earn/Purchase.tsx', source },
        { path: 'apps/web/src/ui/Field.tsx', source: "import '../features/positions/trading.css';" },
        { path: 'apps/admin/src/smart/SmartPlans.tsx', source: "import { r } from '../earn/rates.ts';" },
        { path: 'apps/admin/src/text.ts', source: "import en from './locales/en.json';" },
      ]).map((edge) => `${edge.from} -> ${edge.to}`),
    ).toEqual([
      'web:earn -> web:positions',
      'web:earn -> web:wallet',
      'web:earn -> web:market',
      'web:earn -> web:ledger',
      'web:earn -> web:kyc',
      'web:earn -> web:wallet',
      'web:earn -> web:positions',
      'web:earn -> web:positions',
      'web:earn -> web:home',
      'admin:smart -> admin:earn',
    ]);
  });

  it('fail on each forbidden import, naming it', () => {
    const edge = (from: string, to: string): Edge => ({
      from,
      to,
      file: `${from.replace(':', '/')}/X.tsx`,
      specifier: `../${to.split(':')[1]}/y.ts`,
    });
    const edges = [
      // Allowed: a product on a base feature, a composition on a product, a base feature on another.
      edge('web:positions', 'web:market'),
      edge('web:home', 'web:positions'),
      edge('web:loans', 'web:kyc'),
      edge('admin:earn', 'admin:review'),
      // Forbidden.
      edge('web:earn', 'web:positions'),
      edge('web:ledger', 'web:positions'),
      edge('web:notices', 'web:home'),
      edge('admin:loans', 'admin:earn'),
      edge('web:account', 'web:kyc'),
      edge('web:kyc', 'web:account'),
      edge('web:identity', 'web:uploads'),
      edge('web:uploads', 'web:notices'),
      edge('web:notices', 'web:identity'),
      edge('web:nfts', 'web:market'),
    ];
    expect(forbiddenImports(edges, FEATURES)).toEqual([
      "web/earn/X.tsx imports '../positions/y.ts': product web:earn -> product web:positions",
      "web/ledger/X.tsx imports '../positions/y.ts': base web:ledger -> product web:positions",
      "web/notices/X.tsx imports '../home/y.ts': base web:notices -> composition web:home",
      "admin/loans/X.tsx imports '../earn/y.ts': product admin:loans -> product admin:earn",
      "web/account/X.tsx imports '../kyc/y.ts': cycle web:account -> web:kyc -> web:account",
      "web/kyc/X.tsx imports '../account/y.ts': cycle web:kyc -> web:account -> web:kyc",
      "web/identity/X.tsx imports '../uploads/y.ts': cycle web:identity -> web:uploads -> web:notices -> web:identity",
      "web/uploads/X.tsx imports '../notices/y.ts': cycle web:uploads -> web:notices -> web:identity -> web:uploads",
      "web/notices/X.tsx imports '../identity/y.ts': cycle web:notices -> web:identity -> web:uploads -> web:notices",
      "web/nfts/X.tsx imports '../market/y.ts': web:nfts is not classified (product, base or composition)",
    ]);
    expect(forbiddenImports(edges.slice(0, 4), FEATURES)).toEqual([]);
  });
});
