import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { EventBus } from './bus.ts';
import type { OpenedChain } from './chain/open.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db.ts';
import type { Job, JobRunner } from './jobs.ts';
import type { KeyRing } from './keys.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail.ts';
import type { RateLimiter } from './ratelimit.ts';
import type { SmsSender } from './sms.ts';
import type { FileStore } from './storage.ts';

/** The parts every module stands on, opened by platform/boot.ts. */
export type Platform = {
  config: Config;
  logger: Logger;
  db: Database;
  bus: EventBus;
  mailer: Mailer;
  sms: SmsSender;
  /** Private files (platform/storage.ts): a folder, the database or an S3 bucket, by FILE_STORE. */
  storage: FileStore;
  rateLimiter: RateLimiter;
  /** The shared Redis connection when REDIS_URL is set (rate limits, feed leadership). */
  redis: Redis | null;
  /**
   * The EVM chain (platform/chain.ts, opened by platform/chain/open.ts): the server's; null with
   * CHAIN=off and in operator commands run outside the server.
   */
  chain: OpenedChain | null;
  /** The keys of every purpose, derived from the master (platform/keys.ts). */
  keys: KeyRing;
};

/** What every module is given before any module: the clock of markets, trading and products. */
export type Base = { clock: Clock };

/**
 * One server module, registered in `src/modules.ts` (the one list): the services it adds (built
 * from the platform and what the modules before it gave), its calls, its jobs, and what it does
 * when the server starts and stops. `Needs` names, by service name, what it takes from earlier
 * modules; the list is checked at compile time (`MissingNeeds`).
 */
export type ServerModule<Needs extends object, Gives extends object> = {
  readonly name: string;
  create?(platform: Platform, needs: Needs & Base): Gives;
  /** Mounts the module's calls. */
  routes?(server: FastifyInstance, services: Needs & Gives & Base, platform: Platform): void;
  /** The module's jobs; main.ts registers them, in list order. */
  jobs?(services: Needs & Gives & Base, platform: Platform, runner: JobRunner): Job[];
  /** Before the server is built, in list order: load, seed, start engines. */
  prepare?(services: Needs & Gives & Base, platform: Platform): Promise<void>;
  /** After the jobs are registered, before the server listens: background work. */
  start?(services: Needs & Gives & Base, platform: Platform): void;
  /** When the server stops, in reverse list order, after its jobs have finished. */
  stop?(services: Needs & Gives & Base): Promise<void> | void;
};

export function defineModule<Needs extends object = object, Gives extends object = object>(
  module: ServerModule<Needs, Gives>,
): ServerModule<Needs, Gives> {
  return module;
}

// biome-ignore lint/suspicious/noExplicitAny: any module, whatever it needs and gives
export type AnyModule = ServerModule<any, any>;

type Intersect<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** Every service the listed modules give, by name, with the base. */
export type ServicesOf<Ms extends readonly AnyModule[]> = Base &
  Intersect<{ [K in keyof Ms]: Ms[K] extends ServerModule<never, infer G> ? G : never }[number]>;

/**
 * `true` when each module's needs are given by the modules before it; otherwise the first module
 * whose needs are not met and the names it lacks (a compile error where the list is checked).
 */
export type MissingNeeds<Ms extends readonly AnyModule[], Given = Base> = Ms extends readonly [
  infer M,
  ...infer Rest extends readonly AnyModule[],
]
  ? M extends ServerModule<infer N, infer G>
    ? Given extends N
      ? MissingNeeds<Rest, Given & G>
      : { module: M['name']; lacks: Exclude<keyof N, keyof Given> }
    : never
  : true;

/** Builds every module's services in list order: each module is given what the ones before gave. */
export function createModuleServices<Ms extends readonly AnyModule[]>(
  modules: Ms,
  platform: Platform,
  base: Base,
): ServicesOf<Ms> {
  const services: Record<string, unknown> = { ...base };
  for (const module of modules) {
    const given = module.create?.(platform, services);
    for (const [name, service] of Object.entries(given ?? {})) {
      if (name in services) throw new Error(`module ${module.name} gives ${name}, which another module gave`);
      services[name] = service;
    }
  }
  return services as ServicesOf<Ms>;
}
