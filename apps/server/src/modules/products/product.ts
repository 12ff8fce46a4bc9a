import type { FastifyInstance } from 'fastify';
import type { z } from 'zod/mini';
import type { Job } from '../../platform/jobs.ts';
import type { Base, Platform, ServerModule } from '../../platform/module.ts';
import type { ReviewCallSet, ReviewDefinition } from '../review/review.define.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import type { ProductBase } from './ports.ts';
import type { QuoteProduct } from './quotes.ts';
import { type SubLedger, subLedgerReconciliationJob } from './reconciliation.ts';
import { SETTLEMENT_PAGE, SettlementRunner } from './settlement.ts';

/**
 * A money product, declared in one place (`<m>.module.ts`): what it is built from, its quotes, the
 * staff review kinds it adds to the one queue, its calls, its daily settlement, the sub-ledgers it
 * keeps, its other jobs and the notice kinds it sends. The kit turns the declaration into a server
 * module: it registers the review kinds (given back as services by name), builds the settlement
 * runner and the daily job around the product's day, and a reconciliation job per sub-ledger.
 * The product writes only its own figures; `products/product.test.ts` checks the declarations
 * (quote names unique across products, notice kinds equal to the texts beside the module).
 */
export type ProductDefinition<Needs extends object, Gives extends object, Reviews extends ReviewKinds> = {
  readonly name: string;
  /** The product's services, built from the platform, the base and what it needs of the list. */
  create(platform: Platform, needs: Needs & ProductBase & Base): Gives;
  /** Every offer it states before a commit (products/quotes.ts): names unique across products. */
  readonly quotes: readonly QuoteProduct<z.ZodMiniType>[];
  /**
   * The notice kinds it sends: the keys of the `notices` group of its `locales/<lang>.json`. Each
   * is routine (the notification list, no dialog) unless it is named in `mustReadNotices`.
   */
  readonly notices: readonly string[];
  /**
   * Those of its notice kinds the customer must read (a refused submission, money taken back):
   * each opens the blocking dialog on the next page. An explicit choice; routine is the default.
   */
  readonly mustReadNotices?: readonly string[];
  /** The kinds of staff review it adds to the one queue, by the service name of their handle. */
  reviews?(services: Needs & Gives & ProductBase & Base, platform: Platform): Reviews;
  /** Mounts its customer and staff calls. */
  routes(server: FastifyInstance, services: ProductServices<Needs, Gives, Reviews>, platform: Platform): void;
  /**
   * Its daily settlement on the kit's runner: one run settles every due day and answers the days
   * it could not pay (a source short: staff were alerted by the runner). The kit runs it as the job
   * `<name>.daily` every 15 minutes until the day has run; a short day fails the run, so it is
   * tried again and resumes once the source is funded.
   */
  settle?(
    services: ProductServices<Needs, Gives, Reviews>,
    runner: SettlementRunner,
  ): Promise<readonly string[]>;
  /** The sub-ledgers it keeps: each checked against the ledger once a day. */
  subLedgers?(services: ProductServices<Needs, Gives, Reviews>): readonly SubLedger[];
  /** Its other jobs. */
  jobs?(services: ProductServices<Needs, Gives, Reviews>, platform: Platform): Job[];
  prepare?(services: ProductServices<Needs, Gives, Reviews>, platform: Platform): Promise<void>;
  start?(services: ProductServices<Needs, Gives, Reviews>, platform: Platform): void;
  stop?(services: ProductServices<Needs, Gives, Reviews>): Promise<void> | void;
};

/** What a product's `create` is given: what it needs of the list, the base of every product, the clock. */
export type ProductNeeds<Needs extends object = object> = Needs & ProductBase & Base;

/** What a product's calls and jobs are given: the list's services, its own and its review kinds' handles. */
export type ProductServices<Needs, Gives, Reviews> = Needs & Gives & ProductBase & Base & QueuesOf<Reviews>;

// biome-ignore lint/suspicious/noExplicitAny: any review kind, whatever its calls
type ReviewKinds = Record<string, ReviewDefinition<any>>;

/** The queue of each declared review kind, by the name it was declared under. */
export type QueuesOf<Reviews> = {
  [K in keyof Reviews]: Reviews[K] extends ReviewDefinition<infer C extends ReviewCallSet>
    ? ReviewQueue<C>
    : never;
};

/** A product module: a server module that carries its declaration, for the kit's checks. */
export type ProductModule<Needs extends object, Gives extends object> = ServerModule<
  Needs & ProductBase,
  Gives
> & {
  readonly product: {
    readonly quotes: readonly QuoteProduct<z.ZodMiniType>[];
    readonly notices: readonly string[];
    readonly mustReadNotices: readonly string[];
  };
};

/** The daily settlement job of a product: run key = the day the runner settles. */
export function dailySettlementJob(
  name: string,
  runner: SettlementRunner,
  settle: (runner: SettlementRunner) => Promise<readonly string[]>,
): Job {
  return {
    name: `${name}.daily`,
    everyMs: 15 * 60_000,
    runKey: () => runner.dueDay(),
    maxAttempts: 96,
    run: async ({ logger }) => {
      const unfunded = await settle(runner);
      if (unfunded.length > 0) throw new Error(`${name} settlement stopped: ${unfunded.join(', ')}`);
      logger.info(`${name} settlement done`);
    },
  };
}

export function defineProduct<
  Needs extends object = object,
  Gives extends object = object,
  Reviews extends ReviewKinds = Record<never, never>,
>(definition: ProductDefinition<Needs, Gives, Reviews>): ProductModule<Needs, Gives & QueuesOf<Reviews>> {
  type Services = ProductServices<Needs, Gives, Reviews>;
  const { name, settle, subLedgers, jobs, prepare, start, stop } = definition;
  const mustReadNotices = definition.mustReadNotices ?? [];
  for (const kind of mustReadNotices)
    if (!definition.notices.includes(kind))
      throw new Error(`${name}: must-read notice ${kind} is not in notices`);
  return {
    name,
    product: { quotes: definition.quotes, notices: definition.notices, mustReadNotices },
    create: (platform, needs) => {
      needs.notices.declareKinds(definition.notices, mustReadNotices);
      const gives = definition.create(platform, needs as Needs & ProductBase & Base);
      const kinds = definition.reviews?.(
        { ...needs, ...gives } as Needs & Gives & ProductBase & Base,
        platform,
      );
      const handles = Object.fromEntries(
        Object.entries(kinds ?? {}).map(([key, kind]) => [key, needs.reviews.register(kind)]),
      );
      return { ...gives, ...handles } as Gives & QueuesOf<Reviews>;
    },
    routes: (server, services, platform) => definition.routes(server, services as Services, platform),
    jobs: (services, platform) => {
      const s = services as Services;
      const runner = settle
        ? new SettlementRunner({
            db: platform.db,
            ledger: s.ledger,
            audit: s.audit,
            now: s.clock.now,
            logger: platform.logger,
            pageSize: SETTLEMENT_PAGE,
          })
        : null;
      return [
        ...(jobs?.(s, platform) ?? []),
        ...(settle && runner ? [dailySettlementJob(name, runner, (r) => settle(s, r))] : []),
        ...(subLedgers?.(s) ?? []).map((sub) => subLedgerReconciliationJob(sub, s.ledger, s.audit)),
      ];
    },
    prepare: prepare && ((services, platform) => prepare(services as Services, platform)),
    start: start && ((services, platform) => start(services as Services, platform)),
    stop: stop && ((services) => stop(services as Services)),
  };
}
