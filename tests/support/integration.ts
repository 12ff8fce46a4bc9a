import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { type CustomerApi, customerApi } from './api.ts';
import { newPostgresDatabase } from './db.ts';
import { type RunningServer, startServer } from './server.ts';
import { sharedDatabasePrefix, sharedFolderPrefix } from './shared-runs.ts';
import { type Inbox, startInbox } from './smtp.ts';
import { createStaffOnServer, type StaffRoleName } from './staff.ts';

export type StartedServer = {
  server: RunningServer;
  inbox: Inbox;
  /** The customer API without a session. */
  anonymous: CustomerApi;
  /** The one-time passwords of the staff the operator created by the CLI, by email. */
  oneTimePasswords: Record<string, string>;
};

/**
 * Which database a file's server runs on when its settings name none (no DATABASE_URL):
 * - `postgres`, the default when the suite has a PostgreSQL server (TEST_DATABASE_URL): a new
 *   database copied from the migrated template, dropped after the file. A server starts in half
 *   the CPU of one on its folder's PGlite, and answers in less. Its files stay in its data folder
 *   (FILE_STORE=folder), as on PGlite.
 * - `pglite`, the README's quick start: the data folder's own embedded database. The files that
 *   test the quick start itself name it; TEST_SERVER_DB=pglite puts every server there.
 */
export type ServerDatabase = 'pglite' | 'postgres';

function serverDatabase(chosen: ServerDatabase | undefined): ServerDatabase {
  if (chosen) return chosen;
  if (process.env.TEST_SERVER_DB === 'pglite' || !process.env.TEST_DATABASE_URL) return 'pglite';
  return 'postgres';
}

type Shared = { server: RunningServer; inbox: Inbox };
let workerServer: Promise<Shared> | null = null;
let filesServed = 0;

/** A client address for the next file on the worker's shared server (a private range, one per file). */
function nextClientAddress(): string {
  filesServed += 1;
  return `10.77.${Math.floor(filesServed / 250) % 256}.${(filesServed % 250) + 1}`;
}

/**
 * The server a test worker shares among the files it runs one after another (vitest runs a
 * worker's files in one process: `isolate: false`), for the files whose `useServer` names no
 * settings, staff, database or clean-up of their own: a plain server of the default database, on
 * the real clock, without a chain. Such a file registers customers of its own (their own email
 * addresses) and reads only their mail, so the files before it on that server change nothing it
 * sees. Started by the first file that asks and again when it went away; it exits with its worker
 * (EXIT_WITH_PARENT); the run's teardown removes its folder and database (support/shared-runs.ts).
 * TEST_SHARED_SERVER=0 (or TEST_ISOLATE=1) gives every file a server of its own again.
 */
function sharedServer(): Promise<Shared> {
  const running = workerServer;
  workerServer = (async () => {
    const alive = await running?.catch(() => null);
    if (alive && alive.server.process.exitCode === null && alive.server.process.signalCode === null)
      return alive;
    const env: Record<string, string> = {};
    if (serverDatabase(undefined) === 'postgres') {
      env.DATABASE_URL = (await newPostgresDatabase({ prefix: sharedDatabasePrefix() })).url;
      env.FILE_STORE = 'folder';
    }
    const inbox = await startInbox();
    // Each file's calls come from an address of its own (X-Forwarded-For, trusted by this server):
    // the limits per address (codes, sign-ins) count each file's own attempts, as on a server of its own.
    const server = await startServer(
      { SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, TRUST_PROXY: 'true', ...env },
      { dataDir: mkdtempSync(sharedFolderPrefix()) },
    );
    return { server, inbox };
  })();
  return workerServer;
}

const sharesTheWorkerServer = (options: Parameters<typeof useServer>[0]) =>
  process.env.TEST_ISOLATE !== '1' &&
  process.env.TEST_SHARED_SERVER !== '0' &&
  options.env === undefined &&
  (options.staff?.length ?? 0) === 0 &&
  options.after === undefined &&
  options.database === undefined &&
  options.own !== true;

/**
 * The shared fixture of the integration tests: one real server for the file (or the describe it
 * is called in), its mail going to an SMTP receiver in the test, with `staff` created by the
 * operator command once it started (through the server's control socket, on either database).
 * A file that names nothing of its own (`useServer({}, …)`) gets its worker's shared server.
 * `started` receives what was started, so the tests keep their own names for it:
 *
 *   let server: RunningServer;
 *   let inbox: Inbox;
 *   useServer({}, (s) => ({ server, inbox } = s));
 */
export function useServer(
  options: {
    env?: Record<string, string> | (() => Promise<Record<string, string>>);
    staff?: { email: string; role: StaffRoleName }[];
    /** Runs after the server and the inbox stopped. */
    after?: () => Promise<void>;
    timeout?: number;
    /** The database when `env` names none (ServerDatabase). */
    database?: ServerDatabase;
    /** A server of the file's own even when it names nothing else (no worker's shared server). */
    own?: boolean;
  },
  started: (server: StartedServer) => void,
): void {
  let inbox: Inbox | undefined;
  let server: RunningServer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (sharesTheWorkerServer(options)) {
    beforeAll(async () => {
      const shared = await sharedServer();
      const server: RunningServer = { ...shared.server, clientAddress: nextClientAddress() };
      started({ server, inbox: shared.inbox, anonymous: customerApi(server), oneTimePasswords: {} });
    }, options.timeout ?? 240_000);
    return;
  }
  beforeAll(async () => {
    const given = typeof options.env === 'function' ? await options.env() : (options.env ?? {});
    const env = { ...given };
    if (!env.DATABASE_URL && serverDatabase(options.database) === 'postgres') {
      const created = await newPostgresDatabase();
      dropDatabase = created.drop;
      env.DATABASE_URL = created.url;
      env.FILE_STORE ??= 'folder';
    }
    inbox = await startInbox();
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, ...env });
    // The operator command, once the server holds the data folder: it runs inside the server (a
    // command that opened the database itself would start the whole platform, about as long as a
    // server start), one account after another.
    const oneTimePasswords: Record<string, string> = {};
    for (const { email, role } of options.staff ?? [])
      oneTimePasswords[email] = await createStaffOnServer(server.dataDir, email, role, server.operatorEnv);
    started({ server, inbox, anonymous: customerApi(server), oneTimePasswords });
  }, options.timeout ?? 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    await dropDatabase?.();
    await options.after?.();
  });
}
