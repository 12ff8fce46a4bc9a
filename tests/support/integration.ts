import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type CustomerApi, customerApi } from './api.ts';
import { type RunningServer, startServer } from './server.ts';
import { type Inbox, startInbox } from './smtp.ts';
import { createStaffByCli, type StaffRoleName } from './staff.ts';

export type StartedServer = {
  server: RunningServer;
  inbox: Inbox;
  /** The customer API without a session. */
  anonymous: CustomerApi;
  /** The one-time passwords of the staff the operator created by the CLI before the start, by email. */
  oneTimePasswords: Record<string, string>;
};

/**
 * The shared fixture of the integration tests: one real server for the file (or the describe it
 * is called in), its mail going to an SMTP receiver in the test, with `staff` created by the
 * operator command before the start. `started` receives what was started, so the tests keep their
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
  let dataDir: string | undefined;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? await options.env() : (options.env ?? {});
    inbox = await startInbox();
    const oneTimePasswords: Record<string, string> = {};
    if (options.staff?.length) {
      // The operator command, before the server holds the data folder.
      dataDir = mkdtempSync(join(tmpdir(), 'swx-it-'));
      for (const { email, role } of options.staff)
        oneTimePasswords[email] = createStaffByCli(dataDir, email, role);
    }
    server = await startServer(
      { SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, ...env },
      dataDir ? { dataDir } : {},
    );
    started({ server, inbox, anonymous: customerApi(server), oneTimePasswords });
  }, options.timeout ?? 240_000);
  afterAll(async () => {
    await server?.stop();
    await inbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await options.after?.();
  });
}
