import type { OperatorCommand } from './commands.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { databaseIdentity, type OperatorIo, sendControl } from './platform/control.ts';
import { DataDirBusyError, lockHolder } from './platform/datalock.ts';

/**
 * Operator commands (commands.ts lists them) against the configured database:
 * - outbox, sms-outbox only read files of DATA_DIR: run here, always.
 * - A server that holds DATA_DIR on the same database takes the command through its control
 *   socket (DATA_DIR/control.sock) and runs it inside (a sandbox server's movable clock lives there).
 * - Otherwise, with DATABASE_URL (PostgreSQL), the server and this process may both connect: run here.
 * - With the embedded PGlite in DATA_DIR, which one process at a time may open, this process takes
 *   the folder's lock and runs it itself. It never opens a folder another live process holds.
 * A command a server takes needs none of the platform here: what runs it here (the commands, the
 * services, the database) is imported only when it does, so the command answers in a fraction of
 * the time (the server parses it and says its usage).
 */
const io: OperatorIo = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};

/** The commands that only read files of DATA_DIR (commands.ts `readsFilesOnly`): run here, always. */
const FILES_ONLY = new Set(['outbox', 'sms-outbox']);

/** How long to wait for a server that holds the folder but does not answer yet (it is starting). */
const WAIT_FOR_SERVER_MS = 30_000;

const database = (config: ReturnType<typeof loadConfig>) => databaseIdentity(config.databaseUrl);

/** The server holding the folder runs on PostgreSQL while this command names none: said, not guessed. */
function onAnotherDatabase(dataDir: string, serverDatabase: string): number {
  console.error(
    `The server on ${dataDir} runs on the database ${serverDatabase}, not on the folder's own: run the command with ` +
      'the DATABASE_URL the server was started with.',
  );
  return 3;
}

async function runHere(command: OperatorCommand, config: ReturnType<typeof loadConfig>): Promise<number> {
  const [{ openPlatform }, { createServices }, { runOperatorCommand }] = await Promise.all([
    import('./platform/boot.ts'),
    import('./app.ts'),
    import('./commands.ts'),
  ]);
  const platform = await openPlatform(config, 'cli');
  const services = createServices(platform);
  try {
    return await runOperatorCommand(command, { config, platform, services }, io);
  } finally {
    services.quotes.close();
    await platform.bus.close();
    platform.mailer.close();
    platform.sms.close();
    await platform.closeExtras();
    await platform.db.close();
  }
}

/**
 * chain:send needs the chain, not the database: the embedded chain lives in the server, so it is
 * sent to the server owning DATA_DIR; a development chain (CHAIN_DEV_RPC_URL) is reached from here
 * when no server answers.
 */
async function chainSend(
  command: Extract<OperatorCommand, { name: 'chain:send' }>,
  config: ReturnType<typeof loadConfig>,
  args: string[],
): Promise<number> {
  const { runChainSend } = await import('./commands.ts');
  if (config.chain.kind === 'external' || config.chain.kind === 'off')
    return runChainSend(command, null, config, io);
  const viaServer = await sendControl(config.dataDir, database(config), 'chain:send', args, io);
  if (typeof viaServer === 'number') return viaServer;
  if (config.chain.kind === 'embedded') {
    console.error(
      `No server is running on ${config.dataDir}: the embedded chain runs inside the server. Start it ` +
        '(npm start) and run the command again.',
    );
    return 3;
  }
  const [{ openChain }, { createLogger }] = await Promise.all([
    import('./platform/chain/open.ts'),
    import('./platform/logger.ts'),
  ]);
  const chain = await openChain(config, createLogger(config));
  try {
    return await runChainSend(command, chain, config, io);
  } finally {
    await chain?.close();
  }
}

async function cli(name: string | undefined, args: string[]): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  // A server owning the folder takes the command (and says its usage when it is wrong).
  if (name && !FILES_ONLY.has(name) && name !== 'chain:send') {
    const viaServer = await sendControl(config.dataDir, database(config), name, args, io);
    if (typeof viaServer === 'number') return viaServer;
    if (viaServer && !config.databaseUrl) return onAnotherDatabase(config.dataDir, viaServer.elsewhere);
  }
  const { parseOperatorCommand, readsFilesOnly, runFileCommand } = await import('./commands.ts');
  const command = parseOperatorCommand(name, args);
  if ('usage' in command) {
    console.error(command.usage);
    return 2;
  }
  if (readsFilesOnly(command)) return runFileCommand(command, config.dataDir, io);
  if (command.name === 'chain:send') return chainSend(command, config, args);
  if (config.databaseUrl) return runHere(command, config);

  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  let told = false;
  for (;;) {
    const viaServer = await sendControl(config.dataDir, database(config), name ?? '', args, io);
    if (typeof viaServer === 'number') return viaServer;
    if (viaServer) return onAnotherDatabase(config.dataDir, viaServer.elsewhere);
    const holder = lockHolder(config.dataDir);
    if (!holder) {
      try {
        return await runHere(command, config);
      } catch (error) {
        // Taken between our look and our try (a server or another command just started): look again.
        if (!(error instanceof DataDirBusyError)) throw error;
        continue;
      }
    }
    if (holder.role !== 'server' || Date.now() > deadline) {
      console.error(new DataDirBusyError(config.dataDir, holder).message);
      if (holder.role === 'server')
        console.error('The server does not answer on its control socket; is it still starting, or stuck?');
      return 3;
    }
    if (!told) {
      console.error(`The server (process ${holder.pid}) is starting; waiting for it to take the command…`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

process.exit(await cli(process.argv[2], process.argv.slice(3)));
