import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Typed configuration from the environment. Every setting has an embedded default, so a fresh
 * clone runs with no environment at all: PGlite in ./data, the in-process event bus, the local
 * mail outbox.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//)
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//)
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//)
    .optional(),
  MAIL_FROM: z.string().default('SWX <no-reply@swx.localhost>'),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional(),
  JOBS: z.enum(['on', 'off']).default('on'),
  SEED: z.enum(['on', 'off']).default('on'),
  /** The built-in simulated quote feed; off leaves /message silent (tests that publish their own). */
  FEED: z.enum(['on', 'off']).default('on'),
  /** Requests per minute per client address on the API, before any stricter per-call limit. */
  API_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string | undefined;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  nodeId: string;
  jobs: boolean;
  seed: boolean;
  feed: boolean;
  apiRateLimit: number;
  trustProxy: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    nodeId: e.NODE_ID ?? `node-${process.pid}`,
    jobs: e.JOBS === 'on',
    seed: e.SEED === 'on',
    feed: e.FEED === 'on',
    apiRateLimit: e.API_RATE_LIMIT,
    trustProxy: e.TRUST_PROXY === 'true',
  };
}
