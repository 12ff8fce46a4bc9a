import { resolve } from 'node:path';
import { z } from 'zod';
import { DEV_DEPOSIT_XPUB_BTC, DEV_DEPOSIT_XPUB_EVM, parseExtendedPublicKey } from './chain/derive.ts';
import type { Hex } from './chain.ts';
import { httpUrl, LOOPBACK_HOSTS, optional } from './config.fields.ts';
import { FILE_STORE_ENV, type FileStoreConfig, fileStoreConfig } from './config.storage.ts';

const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x and 40 hex digits')
  .transform((text) => text.toLowerCase() as Hex);

const extendedPublicKey = z.string().refine((text) => {
  try {
    parseExtendedPublicKey(text);
    return true;
  } catch {
    return false;
  }
}, 'must be an extended public key (xpub or zpub)');

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
  SMS_URL: httpUrl('SMS_URL').optional(),
  /** Sent to the SMS gateway as `Authorization: Bearer <SMS_TOKEN>`. */
  SMS_TOKEN: z.string().min(1).optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional(),
  JOBS: z.enum(['on', 'off']).default('on'),
  /**
   * on: the node stops (as on SIGTERM) when the process that started it is gone, e.g. a test run
   * or a supervisor killed without its children. Off by default: under systemd or a container the
   * parent is init from the start.
   */
  EXIT_WITH_PARENT: z.enum(['on', 'off']).default('off'),
  /** How often the wallet job reads the chain, sends approved withdrawals and follows sent ones. */
  WALLET_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  SEED: z.enum(['on', 'off']).default('on'),
  /** The built-in simulated quote feed; off leaves /message silent (tests that publish their own). */
  FEED: z.enum(['on', 'off']).default('on'),
  /** `movable`: a sandbox whose clock operators move forward (platform/clock.ts); refused in production. */
  SWX_CLOCK: z.enum(['system', 'movable']).default('system'),
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
  ...FILE_STORE_ENV,
  /**
   * The bearer token of /metrics (Prometheus). Unset, /metrics answers 404 like any unknown path.
   */
  METRICS_TOKEN: optional(
    z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable characters'),
  ),
  /**
   * Web Push of price alerts (modules/pricealerts): the VAPID key pair (base64url, as web-push's
   * generateVAPIDKeys gives it) and the subject (mailto: or https:). No default: unset, price
   * alerts are not pushed; all three or none.
   */
  VAPID_PUBLIC_KEY: optional(
    z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key, base64url'),
  ),
  VAPID_PRIVATE_KEY: optional(
    z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, base64url'),
  ),
  VAPID_SUBJECT: optional(z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https: URL')),
  /** Requests per minute per client address on the API, before any stricter per-call limit. */
  API_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /**
   * The master secret every key of the server derives from (platform/keys.ts): quote ids, device
   * cookies, sealed two-step secrets. 32 bytes as 64 hex digits (`openssl rand -hex 32`), the same
   * on every node. Unset in the sandbox: a random key kept in DATA_DIR/master.key. Production
   * refuses to start without it.
   */
  MASTER_KEY: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (32 bytes)')),
  /**
   * The master before a rotation: what it signed or sealed stays valid for its own lifetime
   * (two-step secrets are sealed again under MASTER_KEY at their next use); remove it to end that.
   */
  MASTER_KEY_PREVIOUS: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (32 bytes)')),
  /** Renamed MASTER_KEY: refused with a message, so that a key is never silently ignored. */
  TOTP_KEY: optional(z.string()),
  /**
   * The EVM chain (platform/chain.ts): `embedded` (default) starts a development chain (anvil) in
   * this process, its state in DATA_DIR/chain; `off` runs without one (tests that need no chain).
   * CHAIN_DEV_RPC_URL or EVM_RPC_URL pick another chain instead of the embedded one.
   */
  CHAIN: z.enum(['embedded', 'off']).default('embedded'),
  /**
   * The embedded chain's block interval in seconds; 0 mines a block per transaction and when asked.
   * For an external chain, its average block time (the ETA shown to customers).
   */
  CHAIN_BLOCK_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
  /**
   * A development chain started by someone else (tests sharing one chain between nodes): anvil's
   * development accounts, still a sandbox. Its test token is CHAIN_DEV_TOKEN_USDT, or, unset, the
   * one the development deployer deploys first (deployed at start when the chain has none yet).
   */
  CHAIN_DEV_RPC_URL: optional(httpUrl('CHAIN_DEV_RPC_URL')),
  CHAIN_DEV_TOKEN_USDT: optional(evmAddress),
  /** A real chain's node (production) and its USDT token contract. */
  EVM_RPC_URL: z.string().optional(),
  EVM_TOKEN_USDT: optional(evmAddress),
  /**
   * The withdrawal signer of a real chain: a service holding the hot wallet's key outside this
   * server's configuration (platform/chain/signer.ts, POST <SIGNER_URL>/sign with
   * `Authorization: Bearer <SIGNER_TOKEN>`), and the hot wallet's address it must sign as.
   * Unset, withdrawals cannot be sent on a real chain.
   */
  SIGNER_URL: optional(httpUrl('SIGNER_URL')),
  SIGNER_TOKEN: optional(z.string().min(1)),
  SIGNER_ADDRESS: optional(evmAddress),
  /**
   * Extended public keys (xpub; zpub for Bitcoin too) of the deposit addresses: the external chain
   * of an account, m/44'/60'/0'/0 (EVM) and m/84'/0'/0'/0 (Bitcoin P2WPKH); customer i's address
   * is its child i. The sandbox default is the published development mnemonic's; production sets
   * its own (the server never holds the private keys).
   */
  DEPOSIT_XPUB_EVM: optional(extendedPublicKey),
  DEPOSIT_XPUB_BTC: optional(extendedPublicKey),
  /**
   * Leverage caps that replace the retail defaults (modules/market/terms.ts), as JSON keyed by
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

/** Which chain `openChain` (platform/chain/open.ts) opens, from CHAIN, CHAIN_DEV_* and EVM_*. */
export type ChainConfig =
  | { kind: 'off' }
  | { kind: 'embedded'; blockSeconds: number }
  | { kind: 'development'; rpcUrl: string; tokenUsdt: Hex | undefined; blockSeconds: number }
  | {
      kind: 'external';
      rpcUrl: string;
      tokenUsdt: Hex;
      blockSeconds: number;
      signer: { url: string; token: string; address: Hex } | null;
    };

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
  /** Stop when the starting process is gone (EXIT_WITH_PARENT=on). */
  exitWithParent: boolean;
  /** Milliseconds between the wallet job's passes. */
  walletPollMs: number;
  seed: boolean;
  feed: boolean;
  apiRateLimit: number;
  /** The ledger batcher's queue bound (LEDGER_MAX_QUEUED). */
  ledgerMaxQueued: number;
  /** SWX_CLOCK: `movable` only in the sandbox. */
  clock: 'system' | 'movable';
  trustProxy: boolean;
  /**
   * MASTER_KEY and MASTER_KEY_PREVIOUS (32 bytes each); `current` null: the sandbox's own random
   * key in DATA_DIR (platform/keys.ts, never in production).
   */
  masterKeys: { current: Buffer | null; previous: Buffer | null };
  leverageCaps: Record<string, number>;
  /** The configured social sign-in providers; empty when none is. */
  socialProviders: SocialProviderConfig[];
  /** Real money: SWX_MODE=production or EVM_RPC_URL set. Never priced by the simulator. */
  production: boolean;
  marketSource: 'simulated' | 'binance';
  /** The real source's endpoint (undefined for the simulator). */
  marketSourceUrl: string | undefined;
  marketStaleSeconds: number;
  chain: ChainConfig;
  /** The deposit addresses' extended public keys; `development`: the published sandbox keys. */
  depositXpubs: { evm: string; btc: string; development: boolean };
  /** FILE_STORE and S3_* (config.storage.ts). */
  fileStore: FileStoreConfig;
  /** METRICS_TOKEN: /metrics answers only with it; unset, not at all. */
  metricsToken: string | undefined;
  /** VAPID_* as given (modules/pricealerts checks them: all three or none). */
  vapid?: { publicKey?: string | undefined; privateKey?: string | undefined; subject?: string | undefined };
};

/** Binance's public combined-stream endpoint (market data only). */
export const BINANCE_STREAM_URL = 'wss://data-stream.binance.vision/stream';

export class ConfigError extends Error {}

type Env = z.infer<typeof schema>;

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
  const issues = marketIssues(e, production);
  const chain = chainConfig(e, issues);
  const fileStore = fileStoreConfig(e, issues);
  issues.push(...productionIssues(e, production, chain), ...keyIssues(e, production));
  if (production && e.SWX_CLOCK === 'movable')
    issues.push(
      `  SWX_CLOCK: this is a production run (${whyProduction(e)}): its clock is the system's; a movable clock is for the sandbox only.`,
    );
  if (issues.length > 0) throw new ConfigError(`invalid environment:\n${issues.join('\n')}`);
  return configOf(e, { production, chain, socialProviders: social, fileStore });
}

/** Why this run is a production run (real money). */
const whyProduction = (e: Env) =>
  e.SWX_MODE === 'production' ? 'SWX_MODE=production' : 'EVM_RPC_URL is set';

/** Real money is never priced by the simulator. */
function marketIssues(e: Env, production: boolean): string[] {
  if (!production || e.MARKET_SOURCE !== 'simulated') return [];
  return [
    `  MARKET_SOURCE: this is a production run (${whyProduction(e)}), ` +
      'so real money is traded: the simulated price feed must not price it. Set MARKET_SOURCE=binance ' +
      '(a real exchange feed), or run the sandbox (SWX_MODE=sandbox, no EVM_RPC_URL).',
  ];
}

/** A production run needs a real chain (or none) and deposit keys of its own. */
function productionIssues(e: Env, production: boolean, chain: ChainConfig): string[] {
  if (!production) return [];
  const why = whyProduction(e);
  const issues: string[] = [];
  if (chain.kind === 'embedded' || chain.kind === 'development')
    issues.push(
      `  EVM_RPC_URL: this is a production run (${why}): deposits and withdrawals need a real chain ` +
        '(EVM_RPC_URL and EVM_TOKEN_USDT), not a development chain; or CHAIN=off for none.',
    );
  for (const [name, value, sandbox] of [
    ['DEPOSIT_XPUB_EVM', e.DEPOSIT_XPUB_EVM, DEV_DEPOSIT_XPUB_EVM],
    ['DEPOSIT_XPUB_BTC', e.DEPOSIT_XPUB_BTC, DEV_DEPOSIT_XPUB_BTC],
  ] as const)
    if (!value || value === sandbox)
      issues.push(
        `  ${name}: this is a production run (${why}): set the extended public key of your own deposit ` +
          'wallet (the sandbox key is the published development mnemonic’s: anyone could spend deposits)',
      );
  return issues;
}

/** The master key: renamed from TOTP_KEY, required in production, never the same as the previous one. */
function keyIssues(e: Env, production: boolean): string[] {
  const issues: string[] = [];
  if (e.TOTP_KEY !== undefined)
    issues.push(
      '  TOTP_KEY: renamed MASTER_KEY (every key of the server derives from it); set MASTER_KEY to the same value and unset TOTP_KEY',
    );
  if (production && !e.MASTER_KEY)
    issues.push(
      `  MASTER_KEY: this is a production run (${whyProduction(e)}): set the master secret (64 hex digits, ` +
        '`openssl rand -hex 32`, the same on every node) that signs quotes and device cookies and seals two-step secrets',
    );
  if (
    e.MASTER_KEY &&
    e.MASTER_KEY_PREVIOUS &&
    e.MASTER_KEY.toLowerCase() === e.MASTER_KEY_PREVIOUS.toLowerCase()
  )
    issues.push(
      '  MASTER_KEY_PREVIOUS: the same as MASTER_KEY; set it to the key before the rotation, or unset it',
    );
  return issues;
}

/** The configuration of a checked environment. */
function configOf(
  e: Env,
  derived: {
    production: boolean;
    chain: ChainConfig;
    socialProviders: SocialProviderConfig[];
    fileStore: FileStoreConfig;
  },
): Config {
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
    exitWithParent: e.EXIT_WITH_PARENT === 'on',
    walletPollMs: e.WALLET_POLL_MS,
    seed: e.SEED === 'on',
    feed: e.FEED === 'on',
    clock: e.SWX_CLOCK,
    apiRateLimit: e.API_RATE_LIMIT,
    ledgerMaxQueued: e.LEDGER_MAX_QUEUED,
    trustProxy: e.TRUST_PROXY === 'true',
    masterKeys: {
      current: e.MASTER_KEY ? Buffer.from(e.MASTER_KEY, 'hex') : null,
      previous: e.MASTER_KEY_PREVIOUS ? Buffer.from(e.MASTER_KEY_PREVIOUS, 'hex') : null,
    },
    leverageCaps: e.LEVERAGE_CAPS,
    metricsToken: e.METRICS_TOKEN,
    socialProviders: derived.socialProviders,
    production: derived.production,
    marketSource: e.MARKET_SOURCE,
    marketSourceUrl:
      e.MARKET_SOURCE === 'simulated' ? undefined : (e.MARKET_SOURCE_URL ?? BINANCE_STREAM_URL),
    marketStaleSeconds: e.MARKET_STALE_SECONDS,
    vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
    chain: derived.chain,
    fileStore: derived.fileStore,
    depositXpubs: {
      evm: e.DEPOSIT_XPUB_EVM ?? DEV_DEPOSIT_XPUB_EVM,
      btc: e.DEPOSIT_XPUB_BTC ?? DEV_DEPOSIT_XPUB_BTC,
      development: !e.DEPOSIT_XPUB_EVM || !e.DEPOSIT_XPUB_BTC,
    },
  };
}

/** A real chain's default block time (Ethereum's slot) when CHAIN_BLOCK_SECONDS is unset. */
const EXTERNAL_BLOCK_SECONDS = 12;

function chainConfig(e: Env, issues: string[]): ChainConfig {
  const rpcUrl = (e.EVM_RPC_URL ?? '').trim();
  if (rpcUrl !== '') {
    const url = httpUrl('EVM_RPC_URL').safeParse(rpcUrl);
    if (!url.success) issues.push('  EVM_RPC_URL: must be an https URL (http only on the loopback address)');
    if (!e.EVM_TOKEN_USDT)
      issues.push('  EVM_TOKEN_USDT: the USDT token contract of the chain at EVM_RPC_URL');
    if (e.CHAIN_DEV_RPC_URL)
      issues.push('  CHAIN_DEV_RPC_URL: set EVM_RPC_URL (a real chain) or this, not both');
    if (e.CHAIN === 'off') issues.push('  CHAIN: off, but EVM_RPC_URL names a chain: unset one of them');
    const signerParts = [e.SIGNER_URL, e.SIGNER_TOKEN, e.SIGNER_ADDRESS].filter((v) => v !== undefined);
    if (signerParts.length !== 0 && signerParts.length !== 3)
      issues.push('  SIGNER_URL, SIGNER_TOKEN, SIGNER_ADDRESS: set all three, or none');
    return {
      kind: 'external',
      rpcUrl,
      tokenUsdt: e.EVM_TOKEN_USDT ?? '0x',
      blockSeconds: e.CHAIN_BLOCK_SECONDS || EXTERNAL_BLOCK_SECONDS,
      signer:
        e.SIGNER_URL && e.SIGNER_TOKEN && e.SIGNER_ADDRESS
          ? { url: e.SIGNER_URL, token: e.SIGNER_TOKEN, address: e.SIGNER_ADDRESS }
          : null,
    };
  }
  if (e.SIGNER_URL || e.SIGNER_TOKEN || e.SIGNER_ADDRESS)
    issues.push('  SIGNER_URL: a withdrawal signer is for a real chain (EVM_RPC_URL)');
  if (e.CHAIN === 'off') return { kind: 'off' };
  if (e.CHAIN_DEV_RPC_URL)
    return {
      kind: 'development',
      rpcUrl: e.CHAIN_DEV_RPC_URL,
      tokenUsdt: e.CHAIN_DEV_TOKEN_USDT,
      blockSeconds: e.CHAIN_BLOCK_SECONDS ?? 0,
    };
  return { kind: 'embedded', blockSeconds: e.CHAIN_BLOCK_SECONDS ?? 2 };
}
