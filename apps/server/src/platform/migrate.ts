import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.ts';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** An arbitrary constant: the advisory lock that lets one node at a time migrate. */
const MIGRATION_LOCK = 7_243_001;

export type Migration = { version: string; sql: string };

export function readMigrations(directory = MIGRATIONS_DIR): Migration[] {
  return readdirSync(directory)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      version: name.replace(/\.sql$/, ''),
      sql: readFileSync(join(directory, name), 'utf8'),
    }));
}

/**
 * Applies the checked-in migrations that are not applied yet, in order, in one transaction under
 * an advisory lock, so several nodes starting together migrate once. Returns what it applied.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    // The lock comes first: even CREATE TABLE IF NOT EXISTS races when two nodes run it at once.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const rows = await tx.query<{ version: string }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      applied.push(migration.version);
    }
    return applied;
  });
}

export async function pendingMigrations(db: Database, migrations = readMigrations()): Promise<string[]> {
  const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations').catch(() => []);
  const done = new Set(rows.map((row) => row.version));
  return migrations.filter((m) => !done.has(m.version)).map((m) => m.version);
}
