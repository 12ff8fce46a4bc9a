import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrate } from '../../apps/server/src/platform/migrate.ts';
import { hasPostgresTemplate, POSTGRES_TEMPLATE, pgliteTemplateDump } from './templates.ts';

/** Which database the db project runs on: TEST_DB=postgres (with TEST_DATABASE_URL) or PGlite. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * The long runs (a year of settlement, 400 days of earn) at their full length: `npm run test:long`.
 * The suite runs them over fewer days, with the same checks.
 */
export const FULL_LENGTH = process.env.TEST_FULL_LENGTH === '1';

export type TestDatabase = { db: Database; url: string | null; close: () => Promise<void> };

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new PostgreSQL database
 * created on the test server and dropped afterwards; both copied from the suite's migrated
 * templates when the suite made them (support/templates.ts, tests/support/setup.ts).
 */
export async function openTestDatabase(
  options: { migrated?: boolean; kind?: 'pglite' | 'postgres' } = {},
): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if ((options.kind ?? TEST_DB) === 'pglite') {
    // The suite's migrated template (support/templates.ts) when it was made; else migrated here.
    const dump = migrated ? pgliteTemplateDump() : null;
    const db = await openPglite(undefined, dump ? { loadDataDir: dump } : {});
    if (migrated && !dump) await migrate(db);
    return { db, url: null, close: () => db.close() };
  }
  const created = await newPostgresDatabase({ migrated });
  const db = await openTestPool(created.url);
  if (migrated && !created.fromTemplate) await migrate(db);
  return {
    db,
    url: created.url,
    async close() {
      await db.close();
      await created.drop();
    },
  };
}

/**
 * How long a database test's query waits for a pool connection: a budget that holds when fifty
 * transactions race on a loaded two-core machine (the product's own wait, CONNECT_TIMEOUT_MS, is
 * 5 s; a test run beside the browser tests exceeded it), not a timing check.
 */
const TEST_POOL_WAIT_MS = 120_000;

/** Another pool on a test's PostgreSQL database (a second node's), with the tests' pool wait. */
export function openTestPool(url: string): Promise<Database> {
  return openPostgres(url, { connectTimeoutMs: TEST_POOL_WAIT_MS });
}

/**
 * A new PostgreSQL database on the test server (TEST_DATABASE_URL), copied from the suite's migrated
 * template when there is one (`fromTemplate`; else empty), and how to drop it.
 */
export async function newPostgresDatabase(
  options: { migrated?: boolean; prefix?: string } = {},
): Promise<{ url: string; fromTemplate: boolean; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${options.prefix ?? 'swx_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const fromTemplate = (options.migrated ?? true) && (await hasPostgresTemplate(admin));
  await admin.query(`CREATE DATABASE ${name}${fromTemplate ? ` TEMPLATE ${POSTGRES_TEMPLATE}` : ''}`);
  // A commit waits for no disk flush (about 1.2 ms each here): a test database outlives no crash of
  // the database server, and every answer is as with it (bench/ keeps synchronous commits).
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    fromTemplate,
    async drop() {
      const cleaner = new pg.Client({ connectionString: adminUrl });
      await cleaner.connect();
      await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleaner.end();
    },
  };
}
