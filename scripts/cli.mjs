// Operator commands: `npm run outbox`, `npm run sms-outbox`, `npm run reconcile`, `npm run audit:verify`,
// `npm run staff:create -- --email <address> --role <role>` (see apps/server/src/cli.ts).
import { join } from 'node:path';
import { root, run } from './lib.mjs';

process.exit(
  run(process.execPath, [
    join(root, 'apps', 'server', 'src', 'cli.ts'),
    process.argv[2] ?? 'outbox',
    ...process.argv.slice(3),
  ]),
);
