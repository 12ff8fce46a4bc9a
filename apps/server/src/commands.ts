import { Code, STAFF_ROLES, type StaffRole, staffEmail } from '@swx/contract';
import type { Platform, Services } from './app.ts';
import { reconcile } from './modules/ledger/ledger.jobs.ts';
import { ONE_TIME_PASSWORD_TTL_SECONDS } from './modules/staff/staff.service.ts';
import type { Config } from './platform/config.ts';
import type { OperatorIo } from './platform/control.ts';
import { ApiError } from './platform/http.ts';
import { listOutbox } from './platform/mail.ts';
import { listSmsOutbox } from './platform/sms.ts';

/**
 * The operator commands (npm run outbox, sms-outbox, reconcile, audit:verify, staff:create), run
 * either by cli.ts in its own process or, when a server owns the embedded data folder, by that
 * server for the CLI through its control socket (platform/control.ts). Both parse the words the
 * operator typed here, so the server never trusts anything but the command line.
 */
export type OperatorCommand =
  | { name: 'outbox' }
  | { name: 'sms-outbox'; failed: boolean }
  | { name: 'reconcile' }
  | { name: 'audit:verify' }
  | { name: 'staff:create'; email: string; role: StaffRole };

export const USAGE =
  'usage: cli.ts outbox | sms-outbox [--failed] | reconcile | audit:verify | staff:create --email <address> --role <role>';

/** The command, or the usage line to print (exit 2). */
export function parseOperatorCommand(
  command: string | undefined,
  args: string[],
): OperatorCommand | { usage: string } {
  switch (command) {
    case 'outbox':
    case 'reconcile':
    case 'audit:verify':
      return { name: command };
    case 'sms-outbox':
      return { name: 'sms-outbox', failed: args.includes('--failed') };
    case 'staff:create': {
      const option = (name: string) => {
        const at = args.indexOf(`--${name}`);
        return at >= 0 ? args[at + 1] : undefined;
      };
      const email = staffEmail.safeParse(option('email') ?? '');
      const role = option('role') ?? '';
      if (!email.success || !(STAFF_ROLES as readonly string[]).includes(role))
        return {
          usage: `usage: npm run staff:create -- --email <address> --role <${STAFF_ROLES.join('|')}>`,
        };
      return { name: 'staff:create', email: email.data, role: role as StaffRole };
    }
    default:
      return { usage: USAGE };
  }
}

/** Commands that only read files of the data folder: no database, no lock. */
export function readsFilesOnly(command: OperatorCommand): boolean {
  return command.name === 'outbox' || command.name === 'sms-outbox';
}

export async function runFileCommand(
  command: OperatorCommand,
  dataDir: string,
  io: OperatorIo,
): Promise<number> {
  if (command.name === 'outbox') {
    const mails = await listOutbox(dataDir);
    if (mails.length === 0) io.out(`The outbox (${dataDir}/outbox) is empty.`);
    for (const mail of mails) io.out(`===== ${mail.id}\n${mail.eml}\n`);
    return 0;
  }
  if (command.name === 'sms-outbox') {
    const messages = await listSmsOutbox(dataDir, { failed: command.failed });
    const folder = `${dataDir}/sms-outbox${command.failed ? '/failed' : ''}`;
    if (messages.length === 0) io.out(`The SMS outbox (${folder}) is empty.`);
    for (const sms of messages)
      io.out(
        `===== ${sms.id}\nTo: ${sms.to}\nDate: ${sms.createdAt}\n${sms.error ? `Error: ${sms.error}\n` : ''}\n${sms.text}\n`,
      );
    return 0;
  }
  throw new Error(`${command.name} needs the database`);
}

/** Runs a command against an open platform: the CLI's own, or the running server's. */
export async function runOperatorCommand(
  command: OperatorCommand,
  context: { config: Config; platform: Platform; services: Services; adminUrl?: string },
  io: OperatorIo,
): Promise<number> {
  const { config, platform, services } = context;
  if (readsFilesOnly(command)) return runFileCommand(command, config.dataDir, io);
  if (command.name === 'staff:create') {
    const input = { email: command.email, role: command.role };
    const created = await services.staff.create(input, null).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === Code.EMAIL_EXISTS) return null;
      throw error;
    });
    if (!created) {
      io.err(`A staff account for ${input.email} exists already.`);
      return 1;
    }
    const url = context.adminUrl ?? `${config.publicUrl ?? `http://localhost:${config.port}`}/admin/`;
    io.out(
      [
        `Staff account ${created.staff.email} (${created.staff.role}, id ${created.staff.id}) created.`,
        `One-time password: ${created.oneTimePassword}`,
        `It is shown only now and expires in ${ONE_TIME_PASSWORD_TTL_SECONDS / 3600} hours. Sign in at ${url}`,
        'with it: you will choose a new password and enrol an authenticator app (TOTP), required for staff.',
      ].join('\n'),
    );
    return 0;
  }
  if (command.name === 'reconcile') {
    const report = await reconcile(services.ledger, services.audit, platform.logger);
    const clean = report.alertId === null;
    io.out(clean ? 'Reconciliation: every balance matches its postings.' : JSON.stringify(report, null, 2));
    return clean ? 0 : 1;
  }
  const verdict = await services.audit.verify();
  io.out(
    verdict.ok
      ? `Audit chain intact: ${verdict.rows} rows.`
      : `Audit chain BROKEN at row ${verdict.brokenAt}: ${verdict.reason}`,
  );
  return verdict.ok ? 0 : 1;
}
