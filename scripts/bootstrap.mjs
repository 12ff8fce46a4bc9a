#!/usr/bin/env node
// Entry point of `npm start` and `npm test`. It runs under whatever Node the machine has,
// brings Node 24 LTS (the npm registry's node-<platform>-<arch> package ships the binary)
// when the running Node is older, installs the workspace when needed, then hands over to
// scripts/<task>.mjs running on Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_VERSION = '24.21.0';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const task = process.argv[2];
if (!task || !existsSync(join(root, 'scripts', `${task}.mjs`))) {
  console.error(`usage: node scripts/bootstrap.mjs <task>  (no scripts/${task}.mjs)`);
  process.exit(2);
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function node24() {
  if (Number(process.versions.node.split('.')[0]) === 24) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = join(root, '.tools', `node-${NODE_VERSION}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) {
    console.log(
      `[bootstrap] Node ${process.versions.node} is not Node 24 LTS; installing ${pkg}@${NODE_VERSION} from the npm registry`,
    );
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
    run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--prefix',
        prefix,
        `${pkg}@${NODE_VERSION}`,
      ],
      process.env,
    );
  }
  return bin;
}

const nodeBin = node24();
const env = { ...process.env, PATH: `${dirname(nodeBin)}:${process.env.PATH}` };

// Install the workspace when node_modules is missing or older than the lockfile.
const marker = join(root, 'node_modules', '.install-stamp');
const lock = join(root, 'package-lock.json');
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  console.log('[bootstrap] installing dependencies (npm ci)');
  run('npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'], env);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}
if (!readFileSync(join(root, 'package.json'), 'utf8').includes('"workspaces"')) process.exit(1);

const r = spawnSync(nodeBin, [join(root, 'scripts', `${task}.mjs`), ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
  env,
});
process.exit(r.status ?? 1);
