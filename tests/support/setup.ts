import { removeSharedLeftovers } from './shared-runs.ts';
import { ensurePgliteTemplates, ensurePostgresTemplate } from './templates.ts';

/**
 * The suite's global setup (vitest.config.ts): the migrated templates every test database and
 * every server's data folder start from (support/templates.ts), made once per set of migrations;
 * after the run, what the workers' shared servers left (support/shared-runs.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  await ensurePgliteTemplates();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) await ensurePostgresTemplate(adminUrl);
  return async () => {
    await removeSharedLeftovers(adminUrl);
  };
}
