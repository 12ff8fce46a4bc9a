// `npm run bench:<name>`: runs bench/<file> on Node 24 with the arguments given after it.
import { join } from 'node:path';
import { root, run } from './lib.mjs';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/bench.mjs <file in bench/> [args]');
  process.exit(2);
}
process.exit(run(process.execPath, [join(root, 'bench', file), ...args]));
