import { mkdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { Platform } from '../app.ts';
import { createBus } from './bus.ts';
import { DEV_DEPOSIT_XPUB_BTC, DEV_DEPOSIT_XPUB_EVM } from './chain/derive.ts';
import type { Config } from './config.ts';
import type { LockRole } from './datalock.ts';
import { openDatabase } from './db.ts';
import { createLogger } from './logger.ts';
import { createMailer } from './mail.ts';
import { migrate } from './migrate.ts';
import { createMemoryRateLimiter, createRedisRateLimiter } from './ratelimit.ts';
import { createSmsSender } from './sms.ts';
import { FileStorage } from './storage.ts';

/** Opens every platform part the configuration names and applies pending migrations. */
export async function openPlatform(
  config: Config,
  role: LockRole = 'server',
): Promise<Platform & { closeExtras: () => Promise<void> }> {
  const logger = createLogger(config);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // With PGlite this takes the data folder's lock (or throws DataDirBusyError): one process only.
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, role });
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const bus = await createBus(config.redisUrl, logger);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
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
  const storage = new FileStorage(config.dataDir);
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
    chain: null,
    depositKeys: { evm: DEV_DEPOSIT_XPUB_EVM, bitcoin: DEV_DEPOSIT_XPUB_BTC },
    async closeExtras() {
      redis?.disconnect();
    },
  };
}
