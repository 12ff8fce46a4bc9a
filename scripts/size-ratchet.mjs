// The size ratchet: no function over 70 lines and no file over 500 lines. The offenders of the
// day the rule came are recorded in scripts/size-baseline.json and may only shrink; a new offender,
// or an offender that grew, fails (npm run size, and apps/server/src/architecture.size.test.ts).
//
//   node scripts/size-ratchet.mjs           the figures; exits 1 listing new and grown offenders
//   node scripts/size-ratchet.mjs --update  lowers the baseline's entries that shrank and removes
//                                           those under the limit now (never adds nor raises one)
//   node scripts/size-ratchet.mjs --reset   rewrites the baseline from today's offenders
//
// Scanned: apps/*/src and packages/*/src (.ts, .tsx), scripts/**/*.mjs, tests/support/**/*.ts and
// bench (.ts, .mjs). Not scanned: tests (*.test.ts and *.test.tsx, so their describe blocks too),
// declarations (*.d.ts), node_modules, dist*, locale and message JSON, and data or generated files:
// a file whose header comment says `// size-ratchet: data` (or `// size-ratchet: generated`).
//
// A function is a function declaration, a method, a constructor, a get or set accessor, an arrow
// function or a function expression; its length is its node's end line - start line + 1. It is
// named by its declared name, else the variable or property it is assigned to, else <anonymous>.
// The baseline keys a function by `<file> <name>`, not by line (lines move); a file's offenders of
// one name are told apart by #2, #3 in order of appearance (counted among the offenders only, so a
// new short function of the same name does not renumber them). The parser is oxc's, through Vite's
// parseAst: TypeScript 7 (the workspace's compiler) has no JavaScript parser API (ts.createSourceFile).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';

export const FUNCTION_LIMIT = 70;
export const FILE_LIMIT = 500;
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BASELINE = join(ROOT, 'scripts', 'size-baseline.json');

/** Where the sources are: a directory pattern (`*` is one level) and the endings scanned in it. */
const SOURCES = [
  ['apps/*/src', ['.ts', '.tsx']],
  ['packages/*/src', ['.ts', '.tsx']],
  ['scripts', ['.mjs']],
  ['tests/support', ['.ts']],
  ['bench', ['.ts', '.mjs']],
];
const SKIPPED_FILE = /\.test\.tsx?$|\.d\.ts$/;
const skippedDir = (name) => name === 'node_modules' || name.startsWith('dist') || name.startsWith('.');
const HEADER_MARK = /^\/\/\s*size-ratchet:\s*(data|generated)\b/;

/** The files under a directory (every level), as paths relative to root. */
function walk(root, dir, endings) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return skippedDir(entry.name) ? [] : walk(root, path, endings);
    return endings.some((ending) => entry.name.endsWith(ending)) && !SKIPPED_FILE.test(entry.name)
      ? [path]
      : [];
  });
}

/** The source files of the repository at root, relative to it, sorted. */
export function sourceFiles(root = ROOT) {
  const files = SOURCES.flatMap(([pattern, endings]) => {
    const [head, tail] = pattern.split('/*/');
    if (tail === undefined) return walk(root, head, endings);
    const dirs = readdirSync(join(root, head), { withFileTypes: true }).filter((d) => d.isDirectory());
    return dirs.flatMap((d) => walk(root, `${head}/${d.name}/${tail}`, endings));
  });
  return [...new Set(files)].sort();
}

/** A data or generated file says so in its header comment (the comment lines before any code). */
export function isDataFile(text) {
  for (const raw of text.split('\n', 40)) {
    const line = raw.trim();
    if (HEADER_MARK.test(line)) return true;
    if (line !== '' && !/^(\/\/|\/\*|\*|#!)/.test(line)) return false;
  }
  return false;
}

function lineCount(text) {
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** 1-based line of an offset, from the offsets where lines start. */
function lineAt(starts, offset) {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** A key's name: an identifier, a string or number literal, a #private name, else its source. */
function keyName(key, text) {
  if (!key) return undefined;
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal') return String(key.value);
  if (key.type === 'MemberExpression' && !key.computed) return keyName(key.property, text);
  return text.slice(key.start, key.end);
}

const FUNCTION_VALUES = new Set(['FunctionExpression', 'ArrowFunctionExpression']);
/** Expressions that wrap a function without changing what it is assigned to. */
const WRAPPERS = new Set([
  'ParenthesizedExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
]);

function unwrap(node) {
  let inner = node;
  while (inner && WRAPPERS.has(inner.type)) inner = inner.expression;
  return inner;
}

/**
 * The name a parent gives the function it holds (a variable, a property, an assignment's target),
 * and whether the parent itself is the function's node (a method or an accessor).
 */
function childNames(node, text) {
  const names = new Map();
  const name = (child, value) => {
    const inner = unwrap(child);
    if (inner && FUNCTION_VALUES.has(inner.type)) names.set(inner, value);
  };
  if (node.type === 'VariableDeclarator' && node.id?.type === 'Identifier') name(node.init, node.id.name);
  if (node.type === 'AssignmentExpression') name(node.right, keyName(node.left, text));
  if (node.type === 'PropertyDefinition' || node.type === 'Property')
    name(node.value, keyName(node.key, text));
  return names;
}

/** A method, constructor or accessor (of a class or an object literal): the node that has the body. */
function isMethod(node) {
  if (node.type === 'MethodDefinition') return node.value?.body != null;
  return node.type === 'Property' && (node.method || node.kind !== 'init') && node.value?.body != null;
}

/** Every function of a source, in order of appearance: { line, name, lines }. */
export function functionsOf(text, file) {
  const lang = file.endsWith('.tsx') ? 'tsx' : file.endsWith('.ts') ? 'ts' : 'js';
  const program = parseAst(text, { lang, sourceType: 'module' });
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const found = [];
  const add = (node, name) => {
    const line = lineAt(starts, node.start);
    found.push({
      start: node.start,
      line,
      name,
      lines: lineAt(starts, Math.max(node.start, node.end - 1)) - line + 1,
    });
  };
  const visit = (node, givenName, methodValue) => {
    if (isMethod(node)) add(node, node.kind === 'constructor' ? 'constructor' : keyName(node.key, text));
    else if (node.type === 'FunctionDeclaration' && node.body) add(node, node.id?.name ?? '<anonymous>');
    else if (FUNCTION_VALUES.has(node.type) && !methodValue)
      add(node, node.id?.name ?? givenName ?? '<anonymous>');
    const names = childNames(node, text);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      for (const child of Array.isArray(value) ? value : [value])
        if (child && typeof child === 'object' && typeof child.type === 'string')
          visit(child, names.get(child), key === 'value' && isMethod(node));
    }
  };
  visit(program, undefined, false);
  return found.sort((a, b) => a.start - b.start).map(({ line, name, lines }) => ({ line, name, lines }));
}

/** The figures of one file: its length, and its functions over the limit keyed as the baseline keys them. */
function measure(root, file, functionLimit) {
  const text = readFileSync(isAbsolute(file) ? file : join(root, file), 'utf8');
  if (isDataFile(text)) return { data: true };
  const seen = new Map();
  const offenders = functionsOf(text, file)
    .filter((f) => f.lines > functionLimit)
    .map((f) => {
      const count = (seen.get(f.name) ?? 0) + 1;
      seen.set(f.name, count);
      const name = count === 1 ? f.name : `${f.name}#${count}`;
      return { key: `${file} ${name}`, where: `${file}:${f.line} ${name}`, lines: f.lines };
    });
  return { data: false, lines: lineCount(text), offenders };
}

export function readBaseline(path = BASELINE) {
  try {
    const baseline = JSON.parse(readFileSync(path, 'utf8'));
    return { functions: baseline.functions ?? {}, files: baseline.files ?? {} };
  } catch (error) {
    if (error.code === 'ENOENT') return { functions: {}, files: {} };
    throw error;
  }
}

/** Offenders against the baseline: new ones and grown ones fail; entries now within the limit can go. */
function compare(kind, offenders, recorded, limit) {
  const failures = [];
  for (const o of offenders) {
    const before = recorded[o.key];
    if (before === undefined) failures.push({ kind, status: 'new', ...o, limit, baseline: null });
    else if (o.lines > before) failures.push({ kind, status: 'grown', ...o, limit, baseline: before });
  }
  const current = new Set(offenders.map((o) => o.key));
  const removable = Object.keys(recorded)
    .filter((key) => !current.has(key))
    .map((key) => ({ kind, key, baseline: recorded[key], limit }));
  return { failures, removable };
}

/**
 * Measures the sources and compares them with the baseline. Options: root (the repository),
 * files (paths to check instead of the repository's sources, relative to root or absolute),
 * baseline (an object, else the file at baselinePath), the limits.
 */
export function check(options = {}) {
  const root = options.root ?? ROOT;
  const functionLimit = options.functionLimit ?? FUNCTION_LIMIT;
  const fileLimit = options.fileLimit ?? FILE_LIMIT;
  const baseline =
    options.baseline ?? readBaseline(options.baselinePath ?? join(root, 'scripts', 'size-baseline.json'));
  const functions = [];
  const files = [];
  const dataFiles = [];
  const list = options.files ?? sourceFiles(root);
  for (const file of list) {
    const figures = measure(root, file, functionLimit);
    if (figures.data) dataFiles.push(file);
    else {
      functions.push(...figures.offenders);
      if (figures.lines > fileLimit) files.push({ key: file, where: file, lines: figures.lines });
    }
  }
  const bySize = (a, b) => b.lines - a.lines || a.key.localeCompare(b.key);
  functions.sort(bySize);
  files.sort(bySize);
  const f = compare('function', functions, baseline.functions, functionLimit);
  const g = compare('file', files, baseline.files, fileLimit);
  return {
    scanned: list.length,
    dataFiles,
    functions,
    files,
    failures: [...f.failures, ...g.failures],
    removable: [...f.removable, ...g.removable],
    ok: f.failures.length + g.failures.length === 0,
  };
}

const entries = (offenders) => Object.fromEntries(offenders.map((o) => [o.key, o.lines]).sort());

/** --reset: today's offenders. --update: the baseline's entries, lowered where they shrank, gone where they are within the limit. */
export function nextBaseline(result, baseline, reset) {
  if (reset) return { functions: entries(result.functions), files: entries(result.files) };
  const lowered = (offenders, recorded) =>
    entries(
      offenders
        .filter((o) => recorded[o.key] !== undefined)
        .map((o) => ({ ...o, lines: Math.min(o.lines, recorded[o.key]) })),
    );
  return {
    functions: lowered(result.functions, baseline.functions),
    files: lowered(result.files, baseline.files),
  };
}

/** One offender against the rule, as the report says it. */
export function describeFailure(f) {
  const was = f.status === 'new' ? 'not in the baseline' : `baseline ${f.baseline}`;
  return `${f.status} ${f.kind}: ${f.where} is ${f.lines} lines (limit ${f.limit}, ${was})`;
}

function report(result) {
  const top = (list) => list.slice(0, 10).map((o) => `\n    ${String(o.lines).padStart(5)}  ${o.where}`);
  console.log(`size ratchet: ${result.scanned} files scanned, ${result.dataFiles.length} data files skipped`);
  console.log(
    `  functions over ${FUNCTION_LIMIT} lines: ${result.functions.length}${top(result.functions).join('')}`,
  );
  console.log(`  files over ${FILE_LIMIT} lines: ${result.files.length}${top(result.files).join('')}`);
  for (const r of result.removable)
    console.log(
      `  ${r.kind} ${r.key} is within the limit now (baseline ${r.baseline}): can be removed (run --update)`,
    );
  if (result.ok) console.log('size ratchet: no new or grown offender');
  else {
    console.error(`size ratchet: ${result.failures.length} new or grown offenders`);
    for (const f of result.failures) console.error(`  ${describeFailure(f)}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reset = process.argv.includes('--reset');
  const update = reset || process.argv.includes('--update');
  const baseline = readBaseline();
  let result = check({ baseline });
  if (update) {
    const next = nextBaseline(result, baseline, reset);
    writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`size ratchet: ${relative(ROOT, BASELINE)} ${reset ? 'rewritten' : 'updated'}`);
    result = check({ baseline: next });
  }
  report(result);
  process.exitCode = result.ok ? 0 : 1;
}
