import { createServices } from './app.ts';
import { reconcile } from './modules/ledger/ledger.jobs.ts';
import { openPlatform } from './platform/boot.ts';
import { loadConfig } from './platform/config.ts';
import { listOutbox } from './platform/mail.ts';

/**
 * Operator commands, against the configured database (DATABASE_URL, else PGlite in DATA_DIR;
 * PGlite allows one process at a time, so stop the server first when using it):
 *   outbox        the newest mails of the local outbox
 *   reconcile     recompute every balance from postings; exit 1 on any difference
 *   audit:verify  walk the hash chain of the audit log; exit 1 if broken
 */
async function cli(command: string | undefined): Promise<number> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  if (command === 'outbox') {
    const mails = await listOutbox(config.dataDir);
    if (mails.length === 0) console.log(`The outbox (${config.dataDir}/outbox) is empty.`);
    for (const mail of mails) console.log(`===== ${mail.id}\n${mail.eml}\n`);
    return 0;
  }
  if (command !== 'reconcile' && command !== 'audit:verify') {
    console.error('usage: cli.ts outbox | reconcile | audit:verify');
    return 2;
  }
  const platform = await openPlatform(config);
  const services = createServices(platform);
  try {
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

process.exit(await cli(process.argv[2]));
