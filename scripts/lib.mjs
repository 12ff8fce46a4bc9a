// Helpers shared by the task scripts (start, test, build, dev). They run on Node 24.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command to completion with inherited output; returns its exit code. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

export function must(cmd, args, options = {}) {
  const code = run(cmd, args, options);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}

export function startProcess(cmd, args, options = {}) {
  return spawn(cmd, args, { cwd: root, stdio: 'inherit', ...options });
}

/** Builds both front ends with Vite (production). */
export function buildApps() {
  for (const app of ['web', 'admin']) {
    must(
      process.execPath,
      [bin('vite').replace(/\.bin\/vite$/, 'vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: join(root, 'apps', app),
      },
    );
    precompress(join(root, 'apps', app, 'dist'));
  }
}

/** Text files the server sends compressed; smaller ones gain nothing worth a second file. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.webmanifest', '.xml']);
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) beside every text asset of a built
 * app (Vite has emptied dist first), once at build time; the server picks one by the request's Accept-Encoding (@fastify/static's
 * preCompressed), so nothing is compressed per request.
 */
export function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}
