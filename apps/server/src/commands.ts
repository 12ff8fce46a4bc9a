import {
  ASSET_SCALES,
  Code,
  formatMinor,
  MoneyFormatError,
  parseMinor,
  STAFF_ROLES,
  type StaffRole,
  staffEmail,
} from '@swx/contract';
import type { Platform, Services } from './app.ts';
import { auditVerdictText } from './modules/audit/audit.service.ts';
import { reconcile } from './modules/ledger/ledger.jobs.ts';
import { ONE_TIME_PASSWORD_TTL_SECONDS } from './modules/staff/staff.service.ts';
import type { OpenedChain } from './platform/chain/open.ts';
import { CHAIN_ASSETS, type ChainAsset, type Hex } from './platform/chain.ts';
import { type Clock, parseDuration } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { OperatorIo } from './platform/control.ts';
import { ApiError } from './platform/http.ts';
import type { JobRunner } from './platform/jobs.ts';
import { listOutbox } from './platform/mail.ts';
import { listSmsOutbox } from './platform/sms.ts';

/**
 * The operator commands (npm run outbox, sms-outbox, reconcile, audit:verify, staff:create,
 * chain:send), run
 * either by cli.ts in its own process or, when a server owns the embedded data folder, by that
 * server for the CLI through its control socket (platform/control.ts). Both parse the words the
 * operator typed here, so the server never trusts anything but the command line.
 */
export type OperatorCommand =
  | { name: 'outbox' }
  | { name: 'sms-outbox'; failed: boolean }
  | { name: 'reconcile' }
  | { name: 'audit:verify' }
  | { name: 'keys:reseal' }
  | { name: 'staff:create'; email: string; role: StaffRole }
  | { name: 'chain:send'; to: Hex; asset: ChainAsset; amount: bigint }
  | { name: 'clock:advance'; ms: number };

export const USAGE =
  'usage: cli.ts outbox | sms-outbox [--failed] | reconcile | audit:verify | keys:reseal | staff:create --email <address> --role <role>' +
  ' | chain:send --to <address> --asset <USDT|ETH> --amount <decimal> | clock:advance --by <30m|6h|1d>';

const CLOCK_USAGE =
  'usage: npm run clock:advance -- --by <duration: 90s, 30m, 6h, 2d> (a sandbox server started with SWX_CLOCK=movable)';

const CHAIN_SEND_USAGE = `usage: npm run chain:send -- --to <0x address> --asset <${CHAIN_ASSETS.join('|')}> --amount <decimal, e.g. 150>`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** The command, or the usage line to print (exit 2). */
export function parseOperatorCommand(
  command: string | undefined,
  args: string[],
): OperatorCommand | { usage: string } {
  switch (command) {
    case 'outbox':
    case 'reconcile':
    case 'audit:verify':
    case 'keys:reseal':
      return { name: command };
    case 'sms-outbox':
      return { name: 'sms-outbox', failed: args.includes('--failed') };
    case 'staff:create': {
      const email = staffEmail.safeParse(option(args, 'email') ?? '');
      const role = option(args, 'role') ?? '';
      if (!email.success || !(STAFF_ROLES as readonly string[]).includes(role))
        return {
          usage: `usage: npm run staff:create -- --email <address> --role <${STAFF_ROLES.join('|')}>`,
        };
      return { name: 'staff:create', email: email.data, role: role as StaffRole };
    }
    case 'chain:send': {
      const to = option(args, 'to') ?? '';
      const asset = (option(args, 'asset') ?? '').toUpperCase();
      if (!/^0x[0-9a-fA-F]{40}$/.test(to) || !(CHAIN_ASSETS as readonly string[]).includes(asset))
        return { usage: CHAIN_SEND_USAGE };
      let amount: bigint;
      try {
        amount = parseMinor(option(args, 'amount') ?? '', ASSET_SCALES[asset as ChainAsset]);
      } catch (error) {
        if (error instanceof MoneyFormatError) return { usage: `${error.message}\n${CHAIN_SEND_USAGE}` };
        throw error;
      }
      if (amount <= 0n) return { usage: `the amount must be positive\n${CHAIN_SEND_USAGE}` };
      return { name: 'chain:send', to: to.toLowerCase() as Hex, asset: asset as ChainAsset, amount };
    }
    case 'clock:advance': {
      const ms = parseDuration(option(args, 'by') ?? '');
      return ms === null ? { usage: CLOCK_USAGE } : { name: 'clock:advance', ms };
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

/**
 * chain:send: a test deposit from the development chain's faucet. Only a development chain has one;
 * on a real chain (EVM_RPC_URL) it is refused: real money is not sent by an operator command.
 */
export async function runChainSend(
  command: Extract<OperatorCommand, { name: 'chain:send' }>,
  chain: OpenedChain | null,
  config: Config,
  io: OperatorIo,
): Promise<number> {
  if (config.chain.kind === 'external' || chain?.chain.kind === 'external' || (chain && !chain.dev)) {
    io.err(
      'Refused: the chain is a real one (EVM_RPC_URL). chain:send only sends test tokens on a development ' +
        'chain (the embedded one, or CHAIN_DEV_RPC_URL); real money is never sent by an operator command.',
    );
    return 1;
  }
  if (!chain?.dev) {
    io.err('This server runs without a chain (CHAIN=off): nothing to send on.');
    return 1;
  }
  const hash = await chain.dev.send({ to: command.to, asset: command.asset, amount: command.amount });
  const amount = formatMinor(command.amount, ASSET_SCALES[command.asset]).replace(/\.?0+$/, '');
  io.out(
    `Sent ${amount} ${command.asset} to ${command.to} on the ${chain.chain.kind} chain (id ${chain.chain.chainId}).`,
  );
  io.out(`Transaction: ${hash}`);
  return 0;
}

/**
 * clock:advance: moves a movable sandbox clock forward, then runs each job's current run (the
 * smart plans' runner and income, settlements, …) so what the new time brings is done when the
 * command returns.
 */
async function runClockAdvance(
  command: Extract<OperatorCommand, { name: 'clock:advance' }>,
  clock: Clock,
  jobs: JobRunner | undefined,
  io: OperatorIo,
): Promise<number> {
  if (!clock.movable) {
    io.err(
      "Refused: this server's clock is the system's. Only a sandbox started with SWX_CLOCK=movable has a clock that moves.",
    );
    return 1;
  }
  if (!jobs) {
    io.err("clock:advance moves a running server's clock: start the server (npm start) and run it again.");
    return 3;
  }
  clock.advance(command.ms);
  const ran = await jobs.tickAll();
  io.out(`The clock reads ${new Date(clock.now()).toISOString()}.`);
  io.out(ran.length ? `Jobs run at that time: ${ran.join(', ')}.` : 'No job was due.');
  return 0;
}

/** Runs a command against an open platform: the CLI's own, or the running server's (with its jobs). */
export async function runOperatorCommand(
  command: OperatorCommand,
  context: { config: Config; platform: Platform; services: Services; jobs?: JobRunner; adminUrl?: string },
  io: OperatorIo,
): Promise<number> {
  const { config, platform, services } = context;
  if (readsFilesOnly(command)) return runFileCommand(command, config.dataDir, io);
  if (command.name === 'clock:advance') return runClockAdvance(command, services.clock, context.jobs, io);
  if (command.name === 'chain:send') return runChainSend(command, platform.chain, config, io);
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
  if (command.name === 'keys:reseal') {
    // Before MASTER_KEY_PREVIOUS is removed: nothing left sealed under it (README, rotation).
    const customers = await services.identity.resealSecrets();
    const staff = await services.staff.resealSecrets();
    for (const [who, report] of [
      ['customers', customers],
      ['staff', staff],
    ] as const) {
      io.out(
        `Two-step secrets of ${who}: ${report.resealed} sealed again under key ${platform.keys.currentId}, ` +
          `${report.current} already under it.`,
      );
      if (report.unreadable.length > 0)
        io.err(
          `${report.unreadable.length} of ${who} sealed under a key no longer accepted (ids ${report.unreadable.join(', ')}): ` +
            'set MASTER_KEY_PREVIOUS to that key and run this again, or have them enrol again.',
        );
    }
    return customers.unreadable.length + staff.unreadable.length === 0 ? 0 : 1;
  }
  if (command.name === 'reconcile') {
    const report = await reconcile(services.ledger, services.audit, platform.logger);
    const clean = report.alertId === null;
    io.out(clean ? 'Reconciliation: every balance matches its postings.' : JSON.stringify(report, null, 2));
    return clean ? 0 : 1;
  }
  const verdict = await services.audit.verify();
  io.out(auditVerdictText(verdict));
  return verdict.ok ? 0 : 1;
}
