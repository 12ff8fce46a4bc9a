// Helpers shared by the task scripts (start, test, build, dev). They run on Node 24.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  }
}
