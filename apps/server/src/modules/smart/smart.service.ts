import { randomUUID } from 'node:crypto';
import type {
  Book,
  Language,
  SmartBacktest,
  SmartLiveRecord,
  SmartPlan,
  SmartPlanDetail,
  SmartPlanMonitorItem,
  SmartProduct,
  SmartProductDetail,
  SmartQuote,
  SmartState,
  smartBuyBody,
  smartProductBody,
  smartQuoteBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { PositionDesk } from '../products/ports.ts';
import { Quotes } from '../products/quotes.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import { smartAttachments } from './smart.attachments.ts';
import { buy, quote } from './smart.buy.ts';
import { postDailyIncome } from './smart.end.ts';
import { list, plan } from './smart.plans.ts';
import { backtest, liveRecord, product, products, refreshBacktests } from './smart.products.ts';
import { SMART } from './smart.quote.ts';
import type { ProductRow } from './smart.repository.ts';
import { runLive, stop } from './smart.runner.ts';
import type { SmartContext } from './smart.shared.ts';
import { adminProducts, createProduct, monitor, subLedger, updateProduct } from './smart.staff.ts';

export { smartBacktestJob, smartIncomeJob, smartLiveJob } from './smart.jobs.ts';
export { netOfPosition, requestIdOf } from './smart.shared.ts';

/**
 * Smart trading plans (contract `smart.ts`, DESIGN §2 rule 5). A plan holds its amount in the
 * customer's `smart` account and runs its product's strategy through the ONE engine
 * (smart.engine.ts) on the instrument's one-minute bars as they complete; each of the engine's
 * actions is a real position of the trading module on that account, at the bar's second. A day's
 * realised result (the results of the trades closed that day, less their fees) is recorded at the
 * next 00:00 UTC; the end (timeframe, the customer's stop, the drawdown stop) closes what is open
 * and returns principal ± result, less the fee share of a positive result, in one entry.
 *
 * The module's public API: a thin front over its use cases, one file each — the products, their
 * backtest and live record (`smart.products.ts`), buying (`smart.buy.ts`), the customer's plans
 * (`smart.plans.ts`), the live runner and the stop (`smart.runner.ts`), a plan's end and its daily
 * income (`smart.end.ts`) and staff's products and monitor (`smart.staff.ts`); the jobs are in
 * `smart.jobs.ts`, the ledger attachments in `smart.attachments.ts`, and what they share in
 * `smart.shared.ts`.
 */
export class SmartService {
  readonly now: () => number;
  private readonly ctx: SmartContext;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    trading: PositionDesk;
    audit: AuditService;
    notices?: NoticesService;
    logger?: Logger;
    /** Epoch milliseconds (an injected clock in tests). */
    now?: () => number;
    quoteKeys?: PurposeKeys;
  }) {
    this.now = deps.now ?? (() => Date.now());
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      trading: deps.trading,
      audit: deps.audit,
      notices: deps.notices,
      logger: deps.logger,
      now: this.now,
      quotes: new Quotes(SMART, {
        keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
        db: deps.db,
        now: () => this.now(),
      }),
      attachments: smartAttachments(deps.ledger, () => this.now()),
      engines: new Map(),
      busy: new Map(),
      backtests: new Map(),
      owner: randomUUID(),
    };
  }

  // Products

  products(): Promise<SmartProduct[]> {
    return products(this.ctx);
  }

  product(id: number): Promise<SmartProductDetail> {
    return product(this.ctx, id);
  }

  /**
   * The product's backtest over the year before today 00:00 UTC, on the platform's one-minute
   * bars, computed once per product and day (kept in `smart_backtests`, so every node serves the
   * same report).
   */
  backtest(p: ProductRow): Promise<SmartBacktest | null> {
    return backtest(this.ctx, p);
  }

  /** Computes today's backtest of every enabled product (the daily job). */
  refreshBacktests(): Promise<number> {
    return refreshBacktests(this.ctx);
  }

  /** Every plan of a product with its realised yield and period, and all of them together. */
  liveRecord(productId: number): Promise<SmartLiveRecord> {
    return liveRecord(this.ctx, productId);
  }

  // Buying

  /** The terms, times, risk limits and the backtest's worst drawdown, signed for the commit; nothing moves. */
  quote(book: Book, userId: number, body: z.infer<typeof smartQuoteBody>): Promise<SmartQuote> {
    return quote(this.ctx, book, userId, body);
  }

  /**
   * Joins at the quote's figures, once per request id: ONE entry moves the amount from the wallet
   * into the smart account, and its attachment takes the product's room (10044 when full) and
   * writes the plan, which trades from the minute the quote named.
   */
  buy(
    book: Book,
    userId: number,
    language: Language,
    body: z.infer<typeof smartBuyBody>,
  ): Promise<SmartPlan> {
    return buy(this.ctx, book, userId, language, body);
  }

  // Plans

  list(book: Book, userId: number, state: SmartState | undefined): Promise<SmartPlan[]> {
    return list(this.ctx, book, userId, state);
  }

  plan(book: Book, userId: number, id: number): Promise<SmartPlanDetail> {
    return plan(this.ctx, book, userId, id);
  }

  /** Stops the customer's plan now: it is first brought up to the last complete minute, then closed there. */
  stop(book: Book, userId: number, planId: number): Promise<SmartPlanDetail> {
    return stop(this.ctx, book, userId, planId);
  }

  // The live runner

  /** The live runner: every running plan stepped through the minutes completed since its last run. */
  runLive(): Promise<number> {
    return runLive(this.ctx);
  }

  /** The daily income: each running plan's complete days not yet recorded (idempotent: a day is recorded once). */
  postDailyIncome(): Promise<number> {
    return postDailyIncome(this.ctx);
  }

  /** The smart account of each customer equals what their running plans hold: amount + closed results − open margins and fees. */
  subLedger(): SubLedger {
    return subLedger(this.ctx);
  }

  // Staff

  adminProducts(): Promise<SmartProduct[]> {
    return adminProducts(this.ctx);
  }

  createProduct(actor: string, body: z.infer<typeof smartProductBody>): Promise<SmartProduct> {
    return createProduct(this.ctx, actor, body);
  }

  /** A change applies to new plans only: each plan keeps the terms it was bought at. */
  updateProduct(
    actor: string,
    body: z.infer<typeof smartProductBody> & { id: number },
  ): Promise<SmartProduct> {
    return updateProduct(this.ctx, actor, body);
  }

  /** The plan monitor: plans with owner, equity and drawdown from the highest closed-trade equity. */
  monitor(query: { state?: SmartState; productId?: number }): Promise<SmartPlanMonitorItem[]> {
    return monitor(this.ctx, query);
  }
}
