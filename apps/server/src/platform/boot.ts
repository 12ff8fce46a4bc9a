import { mkdirSync } from 'node:fs';
import { createBus } from './bus.ts';
import { type OpenedChain, openChain } from './chain/open.ts';
import type { Config } from './config.ts';
import type { LockRole } from './datalock.ts';
import { openDatabase } from './db.ts';
import { platformKeys } from './keys.ts';
import { createLogger } from './logger.ts';
import { createMailer } from './mail.ts';
import { pgPoolWaitSeconds } from './metrics.ts';
import { migrate } from './migrate.ts';
import type { Platform } from './module.ts';
import { createMemoryRateLimiter, createRedisRateLimiter } from './ratelimit.ts';
import { createSmsSender } from './sms.ts';
import { openFileStore } from './storage.open.ts';

/**
 * Opens every platform part the configuration names and applies pending migrations. The server
 * (role `server`) also opens the chain, while the database opens and migrates; an operator command
 * run outside the server has none.
 */
export async function openPlatform(
  config: Config,
  role: LockRole = 'server',
): Promise<Platform & { closeExtras: () => Promise<void> }> {
  const logger = createLogger(config);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Production always sets MASTER_KEY (config.ts); the sandbox's own is made at first start.
  const keys = platformKeys(config);
  const opening: Promise<OpenedChain | null> =
    role === 'server' ? openChain(config, logger) : Promise.resolve(null);
  // Settled here so that a failure of the database below reports the database's error, not the chain's.
  const settled = opening.then(
    (chain) => ({ chain }),
    (error: unknown) => ({ error }),
  );
  let db: Awaited<ReturnType<typeof openDatabase>>;
  try {
    // With PGlite this takes the data folder's lock (or throws DataDirBusyError): one process only.
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      role,
      onPoolWait: (seconds) => pgPoolWaitSeconds.observe(seconds),
    });
    const applied = await migrate(db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  } catch (error) {
    const result = await settled;
    if ('chain' in result) await result.chain?.close();
    throw error;
  }
  const result = await settled;
  if ('error' in result) {
    await db.close();
    throw result.error;
  }
  const bus = await createBus(config.redisUrl, logger);
  const redis = config.redisUrl ? await openRedis(config.redisUrl) : null;
  const rateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
  });
  const sms = createSmsSender({
    url: config.smsUrl,
    token: config.smsToken,
    dataDir: config.dataDir,
    logger,
  });
  const storage = openFileStore(config.fileStore, db, config.dataDir);
  return {
    config,
    logger,
    db,
    bus,
    mailer,
    sms,
    storage,
    rateLimiter,
    redis,
    chain: result.chain,
    keys,
    async closeExtras() {
      redis?.disconnect();
      await result.chain?.close();
    },
  };
}

/** The Redis client, loaded only when a URL names Redis (a node on its own never spends its start on it). */
async function openRedis(url: string) {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 2 });
}
