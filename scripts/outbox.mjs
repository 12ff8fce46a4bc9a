// `npm run outbox`: the newest mails in the local outbox (./data/outbox), for the operator.
import { join } from 'node:path';
import { root, run } from './lib.mjs';

process.exit(run(process.execPath, [join(root, 'apps', 'server', 'src', 'cli.ts'), 'outbox']));
