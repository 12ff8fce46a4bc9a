// `npm start`: build the apps, then run the server (it migrates and seeds at start) on PORT
// (default 8080) with PGlite in ./data unless DATABASE_URL is set.
import { join } from 'node:path';
import { buildApps, root, startProcess } from './lib.mjs';

buildApps();
const server = startProcess(process.execPath, [join(root, 'apps', 'server', 'src', 'main.ts')], {
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
