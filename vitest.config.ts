import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { callRoutesModule, featureTitles } from './apps/web/vite.config.ts';

/**
 * Four projects, run by scripts/test.mjs (tests/support/setup.ts makes the migrated databases
 * every database test and server start copies):
 * - unit: pure code (contract, web helpers, server parts that need no database)
 * - db: repository and platform tests against a real database, PGlite or PostgreSQL (TEST_DB)
 * - integration: a real server process over HTTP and websocket
 * - e2e: Debian's Chromium driving the built apps, at a desktop and a mobile viewport
 */
/**
 * Test files side by side in a project: TEST_WORKERS, or two (vitest's default is one on a
 * two-core machine, where a file mostly waits for its server, its database or its browser).
 */
const WORKERS = Number(process.env.TEST_WORKERS) || 2;
// The test servers and operator commands the workers start keep V8's compiled code on disk (as
// scripts/test.mjs sets it): a server start spends about a second less.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'swx-node-compile-cache');

export default defineConfig({
  test: {
    projects: [
      {
        // The customer app's call routes and its features' page titles, as its build writes them
        // (apps/web/vite.config.ts).
        plugins: [callRoutesModule(), featureTitles()],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx'],
          exclude: ['**/*.db.test.ts', '**/*.it.test.ts', '**/node_modules/**'],
          maxWorkers: WORKERS,
          // Files share their worker's modules (TEST_ISOLATE=1: a fresh module graph per file): the
          // contract, the web helpers and i18n are evaluated once per worker, not once per file.
          isolate: process.env.TEST_ISOLATE === '1',
          // Budgets that hold on a busy two-core machine; the CPU-heavy tests name larger ones.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'db',
          include: ['apps/server/src/**/*.db.test.ts'],
          globalSetup: ['tests/support/setup.ts'],
          maxWorkers: WORKERS,
          // A worker runs file after file in one process (TEST_ISOLATE=1: a process per file, as
          // vitest does by default): PGlite's WebAssembly and the server's modules are compiled once
          // per worker, not once per file; each file still opens its own database or server.
          isolate: process.env.TEST_ISOLATE === '1',
          // A budget beside the other lanes on two cores (a test that migrates from nothing twice
          // on PGlite took 60 s there), not a timing check.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          isolate: process.env.TEST_ISOLATE === '1',
          include: ['tests/integration/**/*.test.ts', 'apps/server/src/**/*.it.test.ts'],
          globalSetup: ['tests/support/setup.ts'],
          maxWorkers: WORKERS,
          // A file that starts two servers on a busy two-core machine: a budget, not a timing check.
          testTimeout: 120_000,
          // A file's set-up may run three operator commands, one after another on the folder's lock, then a server.
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'e2e',
          isolate: process.env.TEST_ISOLATE === '1',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/setup.ts'],
          maxWorkers: WORKERS,
          // A loaded two-core machine can be slow to paint (two files at once, beside the other
          // lanes and whatever else runs): polls wait, they never assert timing.
          expect: { poll: { timeout: 30_000 } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
