import { ensurePgliteTemplates, ensurePostgresTemplate } from './templates.ts';

/**
 * The suite's global setup (vitest.config.ts): the migrated templates every test database and
 * every server's data folder start from (support/templates.ts), made once per set of migrations.
 */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplates();
  if (process.env.TEST_DATABASE_URL) await ensurePostgresTemplate(process.env.TEST_DATABASE_URL);
}
