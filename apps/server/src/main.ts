import { buildApp, createServices } from './app.ts';
import { parseOperatorCommand, runOperatorCommand } from './commands.ts';
import { MODULES } from './modules.ts';
import { openPlatform } from './platform/boot.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { closeControl, serveControl } from './platform/control.ts';
import { DataDirBusyError } from './platform/datalock.ts';
import { JobRunner } from './platform/jobs.ts';
import type { Platform } from './platform/module.ts';

/**
 * The server process: configuration, platform, migrations, seed data, HTTP and websocket on one
 * port, jobs; a graceful stop on SIGTERM or SIGINT (readiness goes false, in-flight requests
 * finish, jobs finish, connections close).
 */
async function main(): Promise<void> {
  const started = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  let platform: Awaited<ReturnType<typeof openPlatform>>;
  try {
    platform = await openPlatform(config);
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
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
      chain: platform.chain?.chain.kind ?? 'off',
      startMs: ms,
    },
    'listening',
  );
  // This process owns the embedded database or the embedded chain: operator commands reach them
  // through DATA_DIR/control.sock.
  const control =
    platform.db.kind === 'pglite' || platform.chain?.chain.kind === 'embedded'
      ? await serveControl(
          config.dataDir,
          async (name, args, io) => {
            const command = parseOperatorCommand(name, args);
            if ('usage' in command) {
              io.err(command.usage);
              return 2;
            }
            return runOperatorCommand(
              command,
              { config, platform, services, jobs, adminUrl: `${base}/admin/` },
              io,
            );
          },
          platform.logger,
        ).catch((error: unknown) => {
          // The server still serves customers; operator commands then refuse with a clear message.
          platform.logger.error({ err: error }, 'operator control socket unavailable');
          return null;
        })
      : null;
  process.stdout.write(
    [
      '',
      `  SWX is running (started in ${ms} ms, database: ${platform.db.kind}, mail: ${platform.mailer.kind}, sms: ${platform.sms.kind})`,
      `  Customer app  ${base}/`,
      `  Back office   ${base}/admin/`,
      `  API           ${base}/swx/  (OpenAPI: ${base}/swx/openapi.json)`,
      `  Quotes        ${base.replace(/^http/, 'ws')}/message`,
      config.production
        ? `  Prices        ${services.market.source.name} (production: real money)`
        : `  Prices        ${services.market.source.name} (SANDBOX: no real money${services.market.source.name === 'simulated' ? ', simulated prices' : ''})`,
      chainLine(platform.chain),
      '',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.logger.info({ signal }, 'shutting down');
    app.state.shuttingDown = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    if (control) await closeControl(control, config.dataDir);
    await jobs.stop();
    for (const module of [...MODULES].reverse()) await module.stop?.(services);
    await app.server.close();
    await platform.bus.close();
    platform.mailer.close();
    platform.sms.close();
    await platform.closeExtras();
    await platform.db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
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
