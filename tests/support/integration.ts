import { afterAll, beforeAll } from 'vitest';
import { type CustomerApi, customerApi } from './api.ts';
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
 * The shared fixture of the integration tests: one real server for the file (or the describe it
 * is called in), its mail going to an SMTP receiver in the test, with `staff` created by the
 * operator command once it started. `started` receives what was started, so the tests keep their
 * own names for it:
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
  },
  started: (server: StartedServer) => void,
): void {
  let inbox: Inbox | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? await options.env() : (options.env ?? {});
    inbox = await startInbox();
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, ...env });
    // The operator command, once the server holds the data folder: it runs inside the server (a
    // command that opened the folder itself would start the whole platform, about as long as a
    // server start), one account after another.
    const oneTimePasswords: Record<string, string> = {};
    const database: Record<string, string> = env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {};
    for (const { email, role } of options.staff ?? [])
      oneTimePasswords[email] = await createStaffOnServer(server.dataDir, email, role, database);
    started({ server, inbox, anonymous: customerApi(server), oneTimePasswords });
  }, options.timeout ?? 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    await options.after?.();
  });
}
