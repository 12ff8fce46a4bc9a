import type { Server } from 'node:net';
import { buildApp, createServices } from './app.ts';
import { parseOperatorCommand, runOperatorCommand } from './commands.ts';
import { MODULES } from './modules.ts';
import { openPlatform } from './platform/boot.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { closeControl, databaseIdentity, serveControl } from './platform/control.ts';
import { acquireDataLock, DataDirBusyError, type DataLock } from './platform/datalock.ts';
import { JobRunner } from './platform/jobs.ts';
import type { Platform } from './platform/module.ts';

type Config = ReturnType<typeof loadConfig>;
type Services = ReturnType<typeof createServices>;
type App = Awaited<ReturnType<typeof buildApp>>;
/** The platform as this process opened it (with what it closes on a stop). */
type Opened = Awaited<ReturnType<typeof openPlatform>>;

/**
 * The server process: configuration, platform, migrations, seed data, HTTP and websocket on one
 * port, jobs; a graceful stop on SIGTERM or SIGINT (readiness goes false, in-flight requests
 * finish, jobs finish, connections close).
 */
async function main(): Promise<void> {
  const started = performance.now();
  const config = await exitOn(ConfigError, () => loadConfig());
  const platform = await exitOn(DataDirBusyError, () => openPlatform(config));
  if (!config.masterKeys.current && config.databaseUrl)
    // Nodes sharing a database must share the master too: each sandbox folder makes its own.
    platform.logger.warn(
      'MASTER_KEY is not set: this node signs with the sandbox key of its DATA_DIR; nodes sharing DATABASE_URL need one MASTER_KEY',
    );
  const services = createServices(platform);
  // Each module loads what it serves (catalogues, system accounts, seed data) in list order.
  for (const module of MODULES) await module.prepare?.(services, platform);
  const app = await buildApp(platform, services);
  const jobs = new JobRunner(platform.db, config.nodeId, platform.logger, services.clock.now);
  for (const module of MODULES)
    for (const job of module.jobs?.(services, platform, jobs) ?? []) jobs.register(job);
  if (config.jobs) jobs.start();
  for (const module of MODULES) module.start?.(services, platform);

  const address = await app.server.listen({ port: config.port, host: config.host });
  const port = Number(new URL(address).port);
  const base = config.publicUrl ?? `http://localhost:${port}`;
  const ms = Math.round(performance.now() - started);
  platform.logger.info(
    {
      port,
      database: platform.db.kind,
      bus: platform.bus.kind,
      mail: platform.mailer.kind,
      sms: platform.sms.kind,
      files: platform.storage.kind,
      chain: platform.chain?.chain.kind ?? 'off',
      startMs: ms,
    },
    'listening',
  );
  const control = await startControl({ config, platform, services, jobs, adminUrl: `${base}/admin/` });
  process.stdout.write(banner(ms, base, config, platform, services));
  stopOnSignals({ config, platform, services, jobs, app, control });
}

/** What a configuration or a data folder refuses is said plainly, and the process exits 2. */
async function exitOn<T>(kind: new (...args: never[]) => Error, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof kind) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * Operator commands reach this server through DATA_DIR/control.sock while it holds the folder: with
 * PGlite the database took the folder's lock; on PostgreSQL the server takes it here when it is
 * free (a second node started on the same folder serves customers without a socket). Null when it
 * holds neither the folder nor an embedded chain, or the socket could not be served.
 */
async function startControl(running: {
  config: Config;
  platform: Opened;
  services: Services;
  jobs: JobRunner;
  adminUrl: string;
}): Promise<{ server: Server; close: () => Promise<void> } | null> {
  const { config, platform } = running;
  let lock: DataLock | null = null;
  if (platform.db.kind !== 'pglite') {
    try {
      lock = acquireDataLock(config.dataDir, 'server');
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      platform.logger.info(
        { holder: error.holder },
        'data folder held by another process: no control socket',
      );
      if (platform.chain?.chain.kind !== 'embedded') return null;
    }
  }
  const server = await serveControl(
    config.dataDir,
    databaseIdentity(config.databaseUrl),
    async (name, args, io) => {
      const command = parseOperatorCommand(name, args);
      if ('usage' in command) {
        io.err(command.usage);
        return 2;
      }
      return runOperatorCommand(command, running, io);
    },
    platform.logger,
  ).catch((error: unknown) => {
    // The server still serves customers; operator commands then refuse with a clear message.
    platform.logger.error({ err: error }, 'operator control socket unavailable');
    return null;
  });
  if (!server) {
    lock?.release();
    return null;
  }
  return {
    server,
    async close() {
      await closeControl(server, config.dataDir);
      lock?.release();
    },
  };
}

/** What the operator reads when the server is up: where everything is, and what it runs on. */
function banner(ms: number, base: string, config: Config, platform: Opened, services: Services): string {
  const source = services.market.source.name;
  return [
    '',
    `  SWX is running (started in ${ms} ms, database: ${platform.db.kind}, mail: ${platform.mailer.kind}, sms: ${platform.sms.kind})`,
    `  Customer app  ${base}/`,
    `  Back office   ${base}/admin/`,
    `  API           ${base}/swx/  (OpenAPI: ${base}/swx/openapi.json)`,
    `  Quotes        ${base.replace(/^http/, 'ws')}/message`,
    config.production
      ? `  Prices        ${source} (production: real money)`
      : `  Prices        ${source} (SANDBOX: no real money${source === 'simulated' ? ', simulated prices' : ''})`,
    chainLine(platform.chain),
    '',
    '',
  ].join('\n');
}

/** A graceful stop on SIGTERM or SIGINT: readiness goes false, the server drains, then control, jobs, modules and platform close. */
function stopOnSignals(running: {
  config: Config;
  platform: Opened;
  services: Services;
  jobs: JobRunner;
  app: App;
  control: { close: () => Promise<void> } | null;
}): void {
  const { config, platform, services, jobs, app, control } = running;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.logger.info({ signal }, 'shutting down');
    app.state.shuttingDown = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // The listener closes first and the requests in flight finish on everything they use; a load
    // balancer's next connection is refused, so it sends the request to another node.
    await app.server.close();
    await control?.close();
    await jobs.stop();
    for (const module of [...MODULES].reverse()) await module.stop?.(services);
    await platform.bus.close();
    platform.mailer.close();
    platform.sms.close();
    await platform.closeExtras();
    await platform.db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (config.exitWithParent) {
    // A parent that dies leaves this process to init (its parent id changes): nothing would stop it.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop('parent gone');
    }, 1000).unref();
  }
}

function chainLine(opened: Platform['chain']): string {
  if (!opened) return '  Chain         off (CHAIN=off)';
  const { chain } = opened;
  if (chain.kind === 'external')
    return `  Chain         external (chain id ${chain.chainId}, USDT ${chain.tokens.USDT})`;
  const blocks = chain.blockSeconds ? `a block every ${chain.blockSeconds} s` : 'a block per transaction';
  return [
    `  Chain         ${chain.kind} ${opened.rpcUrl} (chain id ${chain.chainId}, test USDT ${chain.tokens.USDT}, ${blocks})`,
    '                test deposit: npm run chain:send -- --to <address> --asset USDT --amount 150',
  ].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
