// The home route's initial JavaScript, gzipped: the entry chunk and every chunk it imports
// statically (what the browser must fetch before the home page can render), read from Vite's
// manifest. Prints the figure; exits 1 over the budget, or when those files build schemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib.mjs';

export const BUDGET_BYTES = 150 * 1024;

export function homeInitialJs(dist = join(root, 'apps', 'web', 'dist')) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  // The app's entry (index.html); the build has a second page, service.html.
  const entry = manifest['index.html'] ?? Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const files = new Set();
  const visit = (chunk) => {
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const key of chunk.imports ?? []) visit(manifest[key]);
  };
  visit(entry);
  const sizes = [...files].map((file) => {
    const bytes = readFileSync(join(dist, file));
    // zod's internals: a schema library in these files means schemas are built as the app starts.
    const schemas = bytes.includes('_zod');
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, schemas };
  });
  return {
    files: sizes,
    /** Files that build the contract's schemas as the app starts (they load with a call's domain). */
    withSchemas: sizes.filter((f) => f.schemas).map((f) => f.file),
    gzip: sizes.reduce((sum, f) => sum + f.gzip, 0),
    raw: sizes.reduce((sum, f) => sum + f.raw, 0),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = homeInitialJs();
  for (const f of result.files)
    console.log(`  ${f.file}  ${(f.raw / 1024).toFixed(1)} KB raw, ${(f.gzip / 1024).toFixed(1)} KB gzip`);
  const verdict = result.gzip <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `home route initial JS: ${(result.gzip / 1024).toFixed(1)} KB gzipped (${verdict} the ${BUDGET_BYTES / 1024} KB budget)`,
  );
  if (result.withSchemas.length > 0) console.log(`schemas built at start: ${result.withSchemas.join(', ')}`);
  if (result.gzip > BUDGET_BYTES || result.withSchemas.length > 0) process.exit(1);
}
