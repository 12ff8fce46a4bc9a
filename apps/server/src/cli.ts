import { Code, STAFF_ROLES, type StaffRole, staffEmail } from '@swx/contract';
import { createServices } from './app.ts';
import { reconcile } from './modules/ledger/ledger.jobs.ts';
import { ONE_TIME_PASSWORD_TTL_SECONDS } from './modules/staff/staff.service.ts';
import { openPlatform } from './platform/boot.ts';
import { loadConfig } from './platform/config.ts';
import { ApiError } from './platform/http.ts';
import { listOutbox } from './platform/mail.ts';
import { listSmsOutbox } from './platform/sms.ts';

/**
 * Operator commands, against the configured database (DATABASE_URL, else PGlite in DATA_DIR;
 * PGlite allows one process at a time, so stop the server first when using it):
 *   outbox        the newest mails of the local outbox
 *   sms-outbox    the newest SMS of the local SMS outbox (--failed: those the gateway refused)
 *   reconcile     recompute every balance from postings; exit 1 on any difference
 *   audit:verify  walk the hash chain of the audit log; exit 1 if broken
 *   staff:create --email <address> --role <admin|compliance|finance|support>
 *                 a staff account with a one-time password, printed once (no default password)
 */
async function cli(command: string | undefined, args: string[]): Promise<number> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  if (command === 'outbox') {
    const mails = await listOutbox(config.dataDir);
    if (mails.length === 0) console.log(`The outbox (${config.dataDir}/outbox) is empty.`);
    for (const mail of mails) console.log(`===== ${mail.id}\n${mail.eml}\n`);
    return 0;
  }
  if (command === 'sms-outbox') {
    const failed = args.includes('--failed');
    const messages = await listSmsOutbox(config.dataDir, { failed });
    const folder = `${config.dataDir}/sms-outbox${failed ? '/failed' : ''}`;
    if (messages.length === 0) console.log(`The SMS outbox (${folder}) is empty.`);
    for (const sms of messages)
      console.log(
        `===== ${sms.id}\nTo: ${sms.to}\nDate: ${sms.createdAt}\n${sms.error ? `Error: ${sms.error}\n` : ''}\n${sms.text}\n`,
      );
    return 0;
  }
  if (command !== 'reconcile' && command !== 'audit:verify' && command !== 'staff:create') {
    console.error(
      'usage: cli.ts outbox | sms-outbox [--failed] | reconcile | audit:verify | staff:create --email <address> --role <role>',
    );
    return 2;
  }
  let staffInput: { email: string; role: StaffRole } | null = null;
  if (command === 'staff:create') {
    const option = (name: string) => {
      const at = args.indexOf(`--${name}`);
      return at >= 0 ? args[at + 1] : undefined;
    };
    const email = staffEmail.safeParse(option('email') ?? '');
    const role = option('role') ?? '';
    if (!email.success || !(STAFF_ROLES as readonly string[]).includes(role)) {
      console.error(`usage: npm run staff:create -- --email <address> --role <${STAFF_ROLES.join('|')}>`);
      return 2;
    }
    staffInput = { email: email.data, role: role as StaffRole };
  }
  const platform = await openPlatform(config);
  const services = createServices(platform);
  try {
    if (staffInput) {
      const created = await services.staff.create(staffInput, null).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === Code.EMAIL_EXISTS) return null;
        throw error;
      });
      if (!created) {
        console.error(`A staff account for ${staffInput.email} exists already.`);
        return 1;
      }
      const url = `${config.publicUrl ?? `http://localhost:${config.port}`}/admin/`;
      console.log(
        [
          `Staff account ${created.staff.email} (${created.staff.role}, id ${created.staff.id}) created.`,
          `One-time password: ${created.oneTimePassword}`,
          `It is shown only now and expires in ${ONE_TIME_PASSWORD_TTL_SECONDS / 3600} hours. Sign in at ${url}`,
          'with it: you will choose a new password and enrol an authenticator app (TOTP), required for staff.',
        ].join('\n'),
      );
      return 0;
    }
    if (command === 'reconcile') {
      const report = await reconcile(services.ledger, services.audit, platform.logger);
      const clean = report.alertId === null;
      console.log(
        clean ? 'Reconciliation: every balance matches its postings.' : JSON.stringify(report, null, 2),
      );
      return clean ? 0 : 1;
    }
    const verdict = await services.audit.verify();
    console.log(
      verdict.ok
        ? `Audit chain intact: ${verdict.rows} rows.`
        : `Audit chain BROKEN at row ${verdict.brokenAt}: ${verdict.reason}`,
    );
    return verdict.ok ? 0 : 1;
  } finally {
    services.quotes.close();
    await platform.bus.close();
    platform.mailer.close();
    await platform.closeExtras();
    await platform.db.close();
  }
}

process.exit(await cli(process.argv[2], process.argv.slice(3)));
