import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { StaffInfo } from '@swx/contract';
import { staffApi } from './api.ts';
import { ROOT, withMigratedPglite } from './server.ts';
import { authenticatorCode } from './totp.ts';

export type StaffRoleName = 'admin' | 'compliance' | 'finance' | 'support';

/**
 * Creates a staff account the way an operator does: `cli.ts staff:create` against a data folder,
 * before the server starts on it or while it runs (then the command runs inside the server, through
 * its control socket), or against a server's PostgreSQL (`env.DATABASE_URL`). Returns the
 * one-time password it printed.
 */
export function createStaffByCli(
  dataDir: string,
  email: string,
  role: StaffRoleName,
  /** The server's database when it is not the data folder's (DATABASE_URL). */
  env: Record<string, string> = {},
): string {
  if (!env.DATABASE_URL) withMigratedPglite(dataDir);
  const result = spawnSync(process.execPath, staffCreateArgs(email, role), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
  return oneTimePassword(result.status, result.stdout, result.stderr);
}

/**
 * `staff:create` on the folder of a running server: the command goes through the server's control
 * socket and runs inside it (under a second, where a command that opens the folder itself starts
 * the whole platform first). It runs beside the test, never blocking it (the server may mail the
 * test's own SMTP receiver meanwhile). Answers the one-time password it printed.
 */
export function createStaffOnServer(
  dataDir: string,
  email: string,
  role: StaffRoleName,
  /** The server's database when it is not the data folder's (DATABASE_URL): the command runs here then. */
  env: Record<string, string> = {},
): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      staffCreateArgs(email, role),
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        try {
          done(
            oneTimePassword(error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr),
          );
        } catch (failed) {
          fail(failed);
        }
      },
    );
  });
}

function staffCreateArgs(email: string, role: StaffRoleName): string[] {
  return [join(ROOT, 'apps', 'server', 'src', 'cli.ts'), 'staff:create', '--email', email, '--role', role];
}

function oneTimePassword(status: number | null, stdout: string, stderr: string): string {
  const password = /One-time password: (\S+)/.exec(stdout)?.[1];
  if (status !== 0 || !password) throw new Error(`staff:create failed (${status}):\n${stdout}\n${stderr}`);
  return password;
}

export const STAFF_PASSWORD = 'staff passphrase 2025';

/** First sign-in over the API: one-time password, enrolment with a computed TOTP code, new password. */
export async function enrolStaffByApi(
  baseUrl: string,
  email: string,
  oneTimePassword: string,
): Promise<{ token: string; secret: string; staff: StaffInfo }> {
  const anonymous = staffApi(baseUrl);
  const step = await anonymous.ok('signIn', { email, password: oneTimePassword });
  if (step.step !== 'enrol') throw new Error(`signIn answered ${JSON.stringify(step)}`);
  const done = await anonymous.ok('enrol', {
    challenge: step.challenge,
    code: authenticatorCode(step.secret),
    newPassword: STAFF_PASSWORD,
  });
  return { token: done.token, staff: done.staff, secret: step.secret };
}
