import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrate, readMigrations } from '../../apps/server/src/platform/migrate.ts';

/**
 * Migrated databases made once per set of migrations and copied for every test that needs one,
 * instead of running initdb and every migration again in each test file and each server start:
 * - a PGlite data folder, copied into a server's DATA_DIR (`newDataDir`),
 * - its dump, loaded by an in-memory PGlite (`openTestDatabase`),
 * - a PostgreSQL database, the template of `CREATE DATABASE … TEMPLATE`.
 * Their names carry a hash of the migrations, so a changed or new migration makes new ones. The
 * copy is the same database the migrations make: platform.db.test.ts still migrates from nothing.
 */
export const MIGRATIONS_HASH = createHash('sha256')
  .update(JSON.stringify(readMigrations()))
  .digest('hex')
  .slice(0, 12);

const FOLDER = join(tmpdir(), 'swx-test-templates', MIGRATIONS_HASH);
const PGLITE_DIR = join(FOLDER, 'pglite');
const PGLITE_DUMP = join(FOLDER, 'pglite.tar');
export const POSTGRES_TEMPLATE = `swx_template_${MIGRATIONS_HASH}`;

/** Makes what is missing of the PGlite templates (a folder and its dump); safe to run from several processes. */
export async function ensurePgliteTemplates(): Promise<void> {
  if (existsSync(PGLITE_DIR) && existsSync(PGLITE_DUMP)) return;
  mkdirSync(FOLDER, { recursive: true });
  const building = `${PGLITE_DIR}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const db = await openPglite(building);
  await migrate(db);
  await db.close();
  const dumpPath = `${building}.tar`;
  const copy = await PGlite.create(building);
  writeFileSync(dumpPath, Buffer.from(await (await copy.dumpDataDir('none')).arrayBuffer()));
  await copy.close();
  // A rename is atomic: a reader sees no file or a whole one. Another process may have won the
  // folder's rename (a folder is not renamed onto another): then this one's copy goes.
  renameSync(dumpPath, PGLITE_DUMP);
  try {
    renameSync(building, PGLITE_DIR);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
}

/** A new data folder for a server or an operator command, its PGlite already migrated. */
export function copyPgliteTemplate(dataDir: string): void {
  if (!existsSync(PGLITE_DIR)) return; // no template made (a test run outside the suite): the server migrates
  cpSync(PGLITE_DIR, join(dataDir, 'pglite'), { recursive: true });
}

let dump: Blob | null = null;
/** The migrated PGlite's dump (read once per process), or null when no template was made. */
export function pgliteTemplateDump(): Blob | null {
  if (dump) return dump;
  if (!existsSync(PGLITE_DUMP)) return null;
  dump = new Blob([readFileSync(PGLITE_DUMP)]);
  return dump;
}

/** Makes the PostgreSQL template database when it is missing; safe to run from several processes. */
export async function ensurePostgresTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [POSTGRES_TEMPLATE]);
    if (found.rowCount) return;
    const building = `${POSTGRES_TEMPLATE}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const db = await openPostgres(url.toString());
    await migrate(db);
    await db.close();
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${POSTGRES_TEMPLATE}`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    }
  } finally {
    await admin.end();
  }
}

/** Whether the PostgreSQL template exists (asked once per process). */
let postgresTemplate: Promise<boolean> | null = null;
export function hasPostgresTemplate(admin: pg.Client): Promise<boolean> {
  postgresTemplate ??= admin
    .query('SELECT 1 FROM pg_database WHERE datname = $1', [POSTGRES_TEMPLATE])
    .then((r) => (r.rowCount ?? 0) > 0);
  return postgresTemplate;
}
