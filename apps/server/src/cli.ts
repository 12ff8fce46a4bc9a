import { loadConfig } from './platform/config.ts';
import { listOutbox } from './platform/mail.ts';

/** Operator commands: `npm run outbox` prints the newest mails of the local outbox. */
async function cli(command: string | undefined): Promise<void> {
  const config = loadConfig();
  switch (command) {
    case 'outbox': {
      const mails = await listOutbox(config.dataDir);
      if (mails.length === 0) console.log(`The outbox (${config.dataDir}/outbox) is empty.`);
      for (const mail of mails) console.log(`===== ${mail.id}\n${mail.eml}\n`);
      return;
    }
    default:
      console.error('usage: cli.ts outbox');
      process.exit(2);
  }
}

await cli(process.argv[2]);
