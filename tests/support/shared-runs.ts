import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/*
 * What a test worker's shared server (support/integration.ts) leaves behind: its database and its
 * data folder, both named after the run that made them (the process id of the run's vitest, whose
 * workers are its children). The run's teardown (support/setup.ts) removes its own once its
 * workers are done, and those of runs that have exited (killed midway); another run's, going on
 * beside it (the browser tests beside the lane), stay.
 */

const DATABASE_PREFIX = 'swx_shared_';
const FOLDER_PREFIX = 'swx-shared-';

/** The start of a shared server's database name, made in a test worker. */
export const sharedDatabasePrefix = () => `${DATABASE_PREFIX}${process.ppid}_`;
/** The start of a shared server's data folder (in the system's temporary folder), made in a test worker. */
export const sharedFolderPrefix = () => join(tmpdir(), `${FOLDER_PREFIX}${process.ppid}-`);

/** The run a name was made by: the number after the prefix; null for a name without it. */
function runOf(name: string, prefix: string): number | null {
  if (!name.startsWith(prefix)) return null;
  const pid = Number(/^\d+/.exec(name.slice(prefix.length))?.[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists and is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether what a run made can go: the run is this one (its workers are done) or has exited. */
const removable = (run: number | null) => run !== null && (run === process.pid || !alive(run));

/** Removes the shared servers' databases and folders of this run and of exited runs. */
export async function removeSharedLeftovers(adminUrl: string | undefined): Promise<void> {
  for (const name of readdirSync(tmpdir()))
    if (removable(runOf(name, FOLDER_PREFIX))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  if (!adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [DATABASE_PREFIX],
    );
    for (const { datname } of rows)
      if (removable(runOf(datname, DATABASE_PREFIX)))
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
