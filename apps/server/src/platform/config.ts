import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

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
  /**
   * An HTTP SMS gateway: each message is POSTed as JSON {to, text} (to in E.164). Unset, SMS are
   * written to DATA_DIR/sms-outbox. https, or http on the loopback address only.
   */
  SMS_URL: z
    .string()
    .url()
    .refine((text) => {
      const url = new URL(text);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    }, 'SMS_URL must be an https URL (http only on the loopback address)')
    .optional(),
  /** Sent to the SMS gateway as `Authorization: Bearer <SMS_TOKEN>`. */
  SMS_TOKEN: z.string().min(1).optional(),
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
  /**
   * SWX_MODE=production: real money (see `production` below); the embedded default is a full sandbox.
   * EVM_RPC_URL (a real chain for deposits) makes a run production too.
   */
  SWX_MODE: z.enum(['sandbox', 'production']).default('sandbox'),
  /** Where prices come from: the built-in simulator, or Binance's public market streams. */
  MARKET_SOURCE: z.enum(['simulated', 'binance']).default('simulated'),
  /** The exchange's combined-stream endpoint (wss, or ws on the loopback address for tests). */
  MARKET_SOURCE_URL: z
    .string()
    .url()
    .refine((text) => {
      const url = new URL(text);
      return url.protocol === 'wss:' || (url.protocol === 'ws:' && LOOPBACK_HOSTS.has(url.hostname));
    }, 'MARKET_SOURCE_URL must be a wss URL (ws only on the loopback address)')
    .optional(),
  /** A real source's price older than this many seconds is stale: the instrument is not tradable. */
  MARKET_STALE_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /**
   * Ledger operations that may wait for a batch at once (ledger.batch.ts); beyond it a request is
   * refused at once with 10031 (unavailable) instead of waiting behind an ever longer queue.
   */
  LEDGER_MAX_QUEUED: z.coerce.number().int().min(1).max(10_000_000).default(20_000),
  /** Requests per minute per client address on the API, before any stricter per-call limit. */
  API_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /**
   * The AES-256-GCM key of the TOTP secrets at rest: 32 bytes as 64 hex digits
   * (`openssl rand -hex 32`). Unset, a development key is used: SHA-256 of the public text
   * DEV_TOTP_KEY_TEXT, which protects nothing; production sets TOTP_KEY and keeps it (secrets
   * sealed under one key cannot be opened under another).
   */
  TOTP_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'TOTP_KEY must be 64 hex digits (32 bytes)')
    .optional(),
  /**
   * Leverage caps that replace the retail defaults (modules/trading/terms.ts), as JSON keyed by
   * instrument code or class, e.g. {"crypto":1,"EURUSD":20}.
   */
  LEVERAGE_CAPS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        const value = JSON.parse(text) as unknown;
        const caps = z.record(z.string(), z.number().int().min(1).max(1000)).parse(value);
        return caps;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'LEVERAGE_CAPS must be a JSON object of integers 1-1000' });
        return z.NEVER;
      }
    }),
});

/**
 * The two social sign-in providers (spec §2). Each is an OpenID Connect provider configured by
 * SOCIAL_<ENV>_ISSUER, _CLIENT_ID and _CLIENT_SECRET (all three, or none: then it is not offered),
 * and an optional _LABEL for its button.
 */
export const SOCIAL_PROVIDERS = [
  { name: 'google', env: 'GOOGLE', label: 'Google' },
  { name: 'microsoft', env: 'MICROSOFT', label: 'Microsoft' },
] as const;

export type SocialProviderConfig = {
  /** The lower-case name in paths: /api/loginCallback/<name>, loginBy<Name>. */
  name: string;
  label: string;
  /** The issuer identifier exactly as the provider's discovery document names it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
};

function socialProviders(env: NodeJS.ProcessEnv, issues: string[]): SocialProviderConfig[] {
  const providers: SocialProviderConfig[] = [];
  for (const provider of SOCIAL_PROVIDERS) {
    const key = (part: string) => `SOCIAL_${provider.env}_${part}`;
    const issuer = env[key('ISSUER')]?.trim() ?? '';
    const clientId = env[key('CLIENT_ID')]?.trim() ?? '';
    const clientSecret = env[key('CLIENT_SECRET')] ?? '';
    const label = env[key('LABEL')]?.trim() || provider.label;
    const given = [issuer, clientId, clientSecret].filter((value) => value !== '').length;
    if (given === 0) continue;
    if (given < 3) {
      issues.push(`  ${key('ISSUER')}, ${key('CLIENT_ID')}, ${key('CLIENT_SECRET')}: set all three, or none`);
      continue;
    }
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch {
      url = null;
    }
    // Plain http only for a provider on this machine (development and tests).
    if (
      !url ||
      !(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    ) {
      issues.push(`  ${key('ISSUER')}: must be an https URL (http only on the loopback address)`);
      continue;
    }
    if (label.length > 40) {
      issues.push(`  ${key('LABEL')}: at most 40 characters`);
      continue;
    }
    providers.push({ name: provider.name, label, issuer, clientId, clientSecret });
  }
  return providers;
}

/** The text the development TOTP key is derived from when TOTP_KEY is unset. Not a secret. */
export const DEV_TOTP_KEY_TEXT = 'swx development TOTP key: set TOTP_KEY in production';

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The SMS gateway; unset: the local SMS outbox. */
  smsUrl: string | undefined;
  smsToken: string | undefined;
  publicUrl: string | undefined;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  nodeId: string;
  jobs: boolean;
  seed: boolean;
  feed: boolean;
  apiRateLimit: number;
  /** The ledger batcher's queue bound (LEDGER_MAX_QUEUED). */
  ledgerMaxQueued: number;
  trustProxy: boolean;
  /** 32 bytes; from TOTP_KEY, or the development key derived from DEV_TOTP_KEY_TEXT. */
  totpKey: Buffer;
  totpKeyIsDevelopment: boolean;
  leverageCaps: Record<string, number>;
  /** The configured social sign-in providers; empty when none is. */
  socialProviders: SocialProviderConfig[];
  /** Real money: SWX_MODE=production or EVM_RPC_URL set. Never priced by the simulator. */
  production: boolean;
  marketSource: 'simulated' | 'binance';
  /** The real source's endpoint (undefined for the simulator). */
  marketSourceUrl: string | undefined;
  marketStaleSeconds: number;
};

/** Binance's public combined-stream endpoint (market data only). */
export const BINANCE_STREAM_URL = 'wss://data-stream.binance.vision/stream';

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const socialIssues: string[] = [];
  const social = socialProviders(env, socialIssues);
  if (socialIssues.length > 0) throw new ConfigError(`invalid environment:\n${socialIssues.join('\n')}`);
  const production = e.SWX_MODE === 'production' || (env.EVM_RPC_URL ?? '').trim() !== '';
  if (production && e.MARKET_SOURCE === 'simulated')
    throw new ConfigError(
      `invalid environment:\n  MARKET_SOURCE: this is a production run (${e.SWX_MODE === 'production' ? 'SWX_MODE=production' : 'EVM_RPC_URL is set'}), ` +
        'so real money is traded: the simulated price feed must not price it. Set MARKET_SOURCE=binance ' +
        '(a real exchange feed), or run the sandbox (SWX_MODE=sandbox, no EVM_RPC_URL).',
    );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsUrl: e.SMS_URL,
    smsToken: e.SMS_TOKEN,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    nodeId: e.NODE_ID ?? `node-${process.pid}`,
    jobs: e.JOBS === 'on',
    seed: e.SEED === 'on',
    feed: e.FEED === 'on',
    apiRateLimit: e.API_RATE_LIMIT,
    ledgerMaxQueued: e.LEDGER_MAX_QUEUED,
    trustProxy: e.TRUST_PROXY === 'true',
    totpKey: e.TOTP_KEY
      ? Buffer.from(e.TOTP_KEY, 'hex')
      : createHash('sha256').update(DEV_TOTP_KEY_TEXT).digest(),
    totpKeyIsDevelopment: !e.TOTP_KEY,
    leverageCaps: e.LEVERAGE_CAPS,
    socialProviders: social,
    production,
    marketSource: e.MARKET_SOURCE,
    marketSourceUrl:
      e.MARKET_SOURCE === 'simulated' ? undefined : (e.MARKET_SOURCE_URL ?? BINANCE_STREAM_URL),
    marketStaleSeconds: e.MARKET_STALE_SECONDS,
  };
}
