import { afterAll, beforeAll } from 'vitest';
import { type CustomerApi, customerApi } from './api.ts';
import { newPostgresDatabase } from './db.ts';
import { type RunningServer, startServer } from './server.ts';
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

/**
 * The shared fixture of the integration tests: one real server for the file (or the describe it
 * is called in), its mail going to an SMTP receiver in the test, with `staff` created by the
 * operator command once it started (through the server's control socket, on either database).
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
  },
  started: (server: StartedServer) => void,
): void {
  let inbox: Inbox | undefined;
  let server: RunningServer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
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
