import { randomUUID } from 'node:crypto';
import {
  type Book,
  Code,
  formatMinor,
  LANGUAGES,
  type Language,
  MoneyFormatError,
  parseMinor,
  SETTLEMENT_SCALE,
  type SmartBacktest,
  type SmartLiveRecord,
  type SmartPlan,
  type SmartPlanDetail,
  type SmartPlanMonitorItem,
  type SmartProduct,
  type SmartProductDetail,
  type SmartQuote,
  type SmartRealisedYield,
  type SmartRisk,
  type SmartState,
  type SmartStrategyInfo,
  type SmartTrade,
  type smartBuyBody,
  type smartProductBody,
  type smartQuoteBody,
  toDisplay,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { dailyKey, type Job, minuteKey } from '../../platform/jobs.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  type EntryAttachment,
  type LedgerService,
  SMART as SMART_ACCOUNT,
} from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import type { NoticeKind, NoticesService } from '../notices/notices.service.ts';
import { ppmOf, ppmText } from '../products/figures.ts';
import type { PositionDesk, PositionRow } from '../products/ports.ts';
import { Quotes } from '../products/quotes.ts';
import type { SubLedger } from '../products/reconciliation.ts';
import { addDays } from '../products/settlement.ts';
import { backtestReport, ratioText } from './smart.backtest.ts';
import { barAt, barsOf, MINUTE } from './smart.bars.ts';
import {
  type EngineAction,
  type EngineConfig,
  type EngineTrade,
  leverageFor,
  SmartEngine,
} from './smart.engine.ts';
import { SMART, type SmartQuoteFigures } from './smart.quote.ts';
import {
  advancePlan,
  backtestOf,
  claimPlan,
  endPlan,
  type IncomeRow,
  incomesOf,
  insertIncome,
  insertPlan,
  insertProduct,
  listProducts,
  type NewPlan,
  type PlanEnd,
  type PlanRow,
  type ProductFields,
  type ProductRow,
  planById,
  planByRequestKey,
  plansActiveOn,
  plansForMonitor,
  plansOfProduct,
  plansOfUser,
  productById,
  releasePlan,
  runningPlans,
  saveBacktest,
  takeCapacity,
  updateProduct,
} from './smart.repository.ts';
import { STRATEGIES } from './smart.strategies.ts';

const DAY = 86_400;
const PPM = 1_000_000n;
const ASSET = 'USDT';
/** The backtest's reference amount when the product's range allows it: 10,000 USDT. */
const REFERENCE_AMOUNT = 10_000n * 10n ** BigInt(SETTLEMENT_SCALE);
const money = (minor: bigint) => formatMinor(minor, SETTLEMENT_SCALE);
const iso = (t: number) => new Date(t * 1000).toISOString();
const dayOf = (t: number) => iso(t).slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const minuteOf = (t: number) => Math.floor(t / MINUTE) * MINUTE;

/** What a closed position left in its plan: its realised result (profit, plus any loss absorbed by the house) less its fee. */
export const netOfPosition = (p: PositionRow) => (p.profitMinor ?? 0n) + p.absorbedMinor - p.feeMinor;

type Subscription = NewPlan;
type EndData = PlanEnd;

/**
 * Smart trading plans (contract `smart.ts`, DESIGN §2 rule 5). A plan holds its amount in the
 * customer's `smart` account and runs its product's strategy through the ONE engine
 * (smart.engine.ts) on the instrument's one-minute bars as they complete; each of the engine's
 * actions is a real position of the trading module on that account, at the bar's second. A day's
 * realised result (the results of the trades closed that day, less their fees) is recorded at the
 * next 00:00 UTC; the end (timeframe, the customer's stop, the drawdown stop) closes what is open
 * and returns principal ± result, less the fee share of a positive result, in one entry.
 */
export class SmartService {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  private readonly trading: PositionDesk;
  private readonly audit: AuditService;
  private readonly notices: NoticesService | undefined;
  private readonly logger: Logger | undefined;
  readonly now: () => number;
  private readonly quotes: Quotes<typeof SMART.figures>;
  private readonly subscribe: EntryAttachment<Subscription, number>;
  private readonly ends: EntryAttachment<EndData, never>;
  /** Each running plan's engine, stepped through `through` (rebuilt from the bars when missing or behind). */
  private readonly engines = new Map<number, { engine: SmartEngine; through: number }>();
  /** One advance of a plan at a time in this process (the runner and a stop). */
  private readonly busy = new Map<number, Promise<unknown>>();
  private readonly backtests = new Map<string, Promise<SmartBacktest | null>>();
  /** Names this service as a plan's lease holder. */
  private readonly owner = randomUUID();

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
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.trading = deps.trading;
    this.audit = deps.audit;
    this.notices = deps.notices;
    this.logger = deps.logger;
    this.now = deps.now ?? (() => Date.now());
    this.quotes = new Quotes(SMART, {
      keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
      db: deps.db,
      now: () => this.now(),
    });
    // The purchase: the plan and its room in the product, in the purchase's transaction.
    this.subscribe = this.ledger.attachment<Subscription, number>('smart_subscribe', async (tx, rows) => {
      const out = new Map<number, number>();
      for (const row of rows) {
        if (!(await takeCapacity(tx, row.data.productId, row.data.amountMinor)))
          throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
        out.set(row.entryId, await insertPlan(tx, row.data, row.entryId));
      }
      return out;
    });
    this.ends = this.ledger.attachment<EndData, never>('smart_end', async (tx, rows) => {
      for (const row of rows) await endPlan(tx, row.data, row.entryId);
      return new Map<number, never>();
    });
  }

  private second(): number {
    return Math.floor(this.now() / 1000);
  }

  // Products

  private instrumentOf(code: string): Instrument {
    const instrument = this.trading.market.instrument(code);
    if (!instrument) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
    return instrument;
  }

  private engineConfig(
    strategy: ProductRow['strategy'],
    instrumentCode: string,
    amount: bigint,
  ): EngineConfig {
    const instrument = this.instrumentOf(instrumentCode);
    const terms = this.trading.termsOf(instrument);
    return {
      strategy: STRATEGIES[strategy],
      market: {
        decimals: instrument.decimals,
        lotSize: terms.lotSize,
        minCentilots: terms.minCentilots,
        maxCentilots: terms.maxCentilots,
        leverages: terms.leverages,
        feePpm: terms.feePpm,
      },
      amount,
    };
  }

  private strategyInfo(p: Pick<ProductRow, 'strategy' | 'instrument'>): SmartStrategyInfo {
    const s = STRATEGIES[p.strategy];
    return {
      key: s.key,
      docKey: s.docKey,
      instruments: [...s.instruments],
      barMinutes: s.barMinutes,
      parameters: { ...s.parameters },
      risk: this.risk(p),
    };
  }

  private risk(p: Pick<ProductRow, 'strategy' | 'instrument'>): SmartRisk {
    const s = STRATEGIES[p.strategy];
    const config = this.engineConfig(p.strategy, p.instrument, 0n);
    return {
      stopLoss: ppmText(s.risk.stopLossPpm),
      takeProfit: ppmText(s.risk.takeProfitPpm),
      leverage: leverageFor(s.risk, config.market) ?? 1,
      marginShare: ppmText(s.risk.marginSharePpm),
      drawdownStop: ppmText(s.risk.drawdownStopPpm),
    };
  }

  /** The instrument's trading costs, as its trading terms state them. */
  private costs(code: string): { tradingFeeRate: string; spreadRate: string } {
    const instrument = this.instrumentOf(code);
    const terms = this.trading.terms(instrument.id);
    return { tradingFeeRate: terms.feeRate, spreadRate: terms.spreadRate };
  }

  private wireProduct(p: ProductRow, realised: SmartRealisedYield | null): SmartProduct {
    return {
      ...this.costs(p.instrument),
      id: p.id,
      name: p.name,
      strategy: this.strategyInfo(p),
      asset: ASSET,
      instruments: [p.instrument],
      timeframes: p.timeframes,
      minAmount: money(p.minMinor),
      maxAmount: money(p.maxMinor),
      capacity: money(p.capacityMinor),
      taken: money(p.takenMinor),
      feeShare: ppmText(p.feeSharePpm),
      enabled: p.enabled,
      soldOut: p.takenMinor + p.minMinor > p.capacityMinor,
      realised,
    };
  }

  async products(): Promise<SmartProduct[]> {
    const products = await listProducts(this.db);
    const out: SmartProduct[] = [];
    for (const p of products) out.push(this.wireProduct(p, (await this.liveRecord(p.id)).realised));
    return out;
  }

  async product(id: number): Promise<SmartProductDetail> {
    const p = await productById(this.db, id);
    if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
    const live = await this.liveRecord(p.id);
    return { product: this.wireProduct(p, live.realised), backtest: await this.backtest(p), live };
  }

  /**
   * The product's backtest over the year before today 00:00 UTC, on the platform's one-minute
   * bars, computed once per product and day (kept in `smart_backtests`, so every node serves the
   * same report).
   */
  async backtest(p: ProductRow): Promise<SmartBacktest | null> {
    const today = dayOf(this.second());
    const key = `${p.id}:${today}`;
    const running = this.backtests.get(key);
    if (running) return running;
    const work = (async () => {
      const cached = await backtestOf(this.db, p.id, today);
      if (cached) return cached as SmartBacktest;
      const instrument = this.instrumentOf(p.instrument);
      const to = dayStart(today);
      const bars = barsOf(this.trading.market.source, instrument, to - 365 * DAY, to);
      let amount = REFERENCE_AMOUNT;
      if (amount < p.minMinor) amount = p.minMinor;
      if (amount > p.maxMinor) amount = p.maxMinor;
      const report = backtestReport(
        p.id,
        this.engineConfig(p.strategy, p.instrument, amount),
        [p.instrument],
        bars,
      );
      await saveBacktest(this.db, p.id, today, report);
      return report;
    })();
    this.backtests.set(key, work);
    try {
      return await work;
    } finally {
      this.backtests.delete(key);
    }
  }

  /** Computes today's backtest of every enabled product (the daily job). */
  async refreshBacktests(): Promise<number> {
    let done = 0;
    for (const p of await listProducts(this.db))
      if (p.enabled) {
        await this.backtest(p);
        done++;
      }
    return done;
  }

  /** Every plan of a product with its realised yield and period, and all of them together. */
  async liveRecord(productId: number): Promise<SmartLiveRecord> {
    const plans = await plansOfProduct(this.db, productId);
    const incomes = await incomesOf(
      this.db,
      plans.map((p) => p.id),
    );
    let amount = 0n;
    let income = 0n;
    let amountDays = 0n;
    let from: number | null = null;
    let to: number | null = null;
    const items: SmartLiveRecord['items'] = [];
    for (const plan of plans) {
      const own = incomes.filter((i) => i.planId === plan.id);
      if (own.length === 0) continue;
      const realised = this.realisedOf(plan, own);
      items.push({
        planId: plan.id,
        amount: money(plan.amountMinor),
        timeframeDays: plan.timeframeDays,
        state: plan.state,
        realised,
      });
      const sum = own.reduce((a, i) => a + i.amountMinor, 0n);
      amount += plan.amountMinor;
      income += sum;
      amountDays += plan.amountMinor * BigInt(own.length);
      const first = dayStart(own[0]?.day as string);
      const last = dayStart(own.at(-1)?.day as string) + DAY;
      from = from === null ? first : Math.min(from, first);
      to = to === null ? last : Math.max(to, last);
    }
    return {
      plans: plans.length,
      running: plans.filter((p) => p.state === 'in_progress').length,
      realised:
        from === null || to === null
          ? null
          : {
              dailyYield: ratioText(income, amountDays),
              periodReturn: ratioText(income, amount),
              from: iso(from),
              to: iso(to),
              days: Math.round((to - from) / DAY),
            },
      items,
    };
  }

  private realisedOf(plan: PlanRow, incomes: readonly IncomeRow[]): SmartRealisedYield {
    const sum = incomes.reduce((a, i) => a + i.amountMinor, 0n);
    const first = dayStart(incomes[0]?.day as string);
    const last = dayStart(incomes.at(-1)?.day as string) + DAY;
    return {
      dailyYield: ratioText(sum, plan.amountMinor * BigInt(incomes.length)),
      periodReturn: ratioText(sum, plan.amountMinor),
      from: iso(first),
      to: iso(last),
      days: incomes.length,
    };
  }

  // Buying

  private async figuresAt(book: Book, body: z.infer<typeof smartQuoteBody>, t: number) {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const p = await productById(this.db, body.productId);
    if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
    if (!p.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
    if (!p.timeframes.includes(body.timeframeDays)) throw new ApiError(Code.NO_MATCHING_DAYS);
    let amount: bigint;
    try {
      amount = parseMinor(body.amount, SETTLEMENT_SCALE);
    } catch (error) {
      if (error instanceof MoneyFormatError) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
      throw error;
    }
    if (amount < p.minMinor || amount > p.maxMinor) throw new ApiError(Code.INCORRECT_PURCHASE_AMOUNT);
    if (p.takenMinor + amount > p.capacityMinor) throw new ApiError(Code.SOLD_OUT, { reason: 'capacity' });
    const figures: SmartQuoteFigures = {
      productId: p.id,
      amount,
      timeframeDays: body.timeframeDays,
      feeSharePpm: p.feeSharePpm,
      quoteTime: t,
      startTick: minuteOf(t) + MINUTE,
    };
    return { p, figures };
  }

  /** The terms, times, risk limits and the backtest's worst drawdown, signed for the commit; nothing moves. */
  async quote(book: Book, userId: number, body: z.infer<typeof smartQuoteBody>): Promise<SmartQuote> {
    const t = this.second();
    const { p, figures } = await this.figuresAt(book, body, t);
    const available =
      (await this.ledger.balances(book, userId)).find((b) => b.asset === ASSET)?.available ?? 0n;
    if (available < figures.amount) throw new ApiError(Code.INSUFFICIENT_BALANCE);
    const backtest = await this.backtest(p);
    const start = figures.startTick;
    return {
      ...this.quotes.issue({ customerId: userId, book }, t, figures),
      productId: p.id,
      productName: p.name,
      strategy: p.strategy,
      instruments: [p.instrument],
      asset: ASSET,
      amount: money(figures.amount),
      timeframeDays: figures.timeframeDays,
      feeShare: ppmText(figures.feeSharePpm),
      ...this.costs(p.instrument),
      risk: this.risk(p),
      startTime: iso(start),
      endTime: iso(start + figures.timeframeDays * DAY),
      firstIncomeTime: iso((Math.floor(start / DAY) + 1) * DAY),
      backtestMaxDrawdown: backtest?.maxDrawdown ?? null,
      backtestReturn: backtest?.totalReturn ?? null,
      available: money(available),
    };
  }

  /**
   * Joins at the quote's figures, once per request id: ONE entry moves the amount from the wallet
   * into the smart account, and its attachment takes the product's room (10044 when full) and
   * writes the plan, which trades from the minute the quote named.
   */
  async buy(
    book: Book,
    userId: number,
    language: Language,
    body: z.infer<typeof smartBuyBody>,
  ): Promise<SmartPlan> {
    const requestKey = `smart:${userId}:${body.requestId}`;
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey,
        replay: async () => {
          const done = await planByRequestKey(this.db, requestKey);
          return done && done.userId === userId ? this.wirePlan(done) : null;
        },
        post: async ({ figures: f }) => {
          if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
          const p = await productById(this.db, f.productId);
          if (!p) throw new ApiError(Code.SMART_PRODUCT_INCORRECT);
          if (!p.enabled) throw new ApiError(Code.NOT_AVAILABLE_FOR_TRADING);
          // The minute the quote named (the confirm step's start and end), never the commit's.
          const start = f.startTick;
          const plan: NewPlan = {
            productId: p.id,
            userId,
            strategy: p.strategy,
            instrument: p.instrument,
            asset: ASSET,
            amountMinor: f.amount,
            minMinor: p.minMinor,
            maxMinor: p.maxMinor,
            timeframeDays: f.timeframeDays,
            feeSharePpm: f.feeSharePpm,
            language,
            startTick: start,
            endTick: start + f.timeframeDays * DAY,
            requestKey,
          };
          const entry = await this.ledger.transfer({
            book,
            kind: 'smart_subscribe',
            idempotencyKey: requestKey,
            actor: `customer:${userId}`,
            reference: `smart-product:${p.id}`,
            postings: [
              { accountId: await this.ledger.walletAccount(book, userId, ASSET), amount: -f.amount },
              {
                accountId: await this.ledger.accountId(book, userId, ASSET, SMART_ACCOUNT),
                amount: f.amount,
              },
            ],
            attach: this.subscribe.with(plan),
          });
          const id = entry.attached ?? (await planByRequestKey(this.db, requestKey))?.id;
          const row = id === undefined ? null : await planById(this.db, id);
          if (!row) throw new Error(`smart plan of ${requestKey} not found`);
          return this.wirePlan(row);
        },
      },
    );
  }

  // Plans

  private async owned(book: Book, userId: number, id: number): Promise<PlanRow> {
    const plan = await planById(this.db, id);
    // Another customer's plan, or one asked for in the demo book, is indistinguishable from none.
    if (!plan || plan.userId !== userId || book !== plan.book) throw new ApiError(Code.NOT_FOUND);
    return plan;
  }

  async list(book: Book, userId: number, state: SmartState | undefined): Promise<SmartPlan[]> {
    if (book !== 'live') return [];
    const plans = await plansOfUser(this.db, userId, state ?? null);
    return this.wirePlans(plans);
  }

  async plan(book: Book, userId: number, id: number): Promise<SmartPlanDetail> {
    return this.detail(await this.owned(book, userId, id));
  }

  private async wirePlan(plan: PlanRow): Promise<SmartPlan> {
    const [wired] = await this.wirePlans([plan]);
    if (!wired) throw new Error('plan not wired');
    return wired;
  }

  private async wirePlans(plans: readonly PlanRow[]): Promise<SmartPlan[]> {
    const ids = plans.map((p) => p.id);
    const positions = await this.trading.planPositions(ids);
    const incomes = await incomesOf(this.db, ids);
    const products = new Map((await listProducts(this.db)).map((p) => [p.id, p]));
    return plans.map((plan) =>
      this.wire(
        plan,
        products.get(plan.productId)?.name ?? '',
        positions.filter((p) => p.planId === plan.id),
        incomes.filter((i) => i.planId === plan.id),
      ),
    );
  }

  private wire(
    plan: PlanRow,
    productName: string,
    positions: readonly PositionRow[],
    incomes: readonly IncomeRow[],
  ): SmartPlan {
    const now = this.second();
    const running = plan.state === 'in_progress';
    const until = running
      ? Math.min(now, plan.endTick)
      : Math.floor(Date.parse(plan.endedAt ?? iso(now)) / 1000);
    const income = incomes.reduce((a, i) => a + i.amountMinor, 0n);
    const closedNet = positions
      .filter((p) => p.status === 'closed')
      .reduce((a, p) => a + netOfPosition(p), 0n);
    const runningSeconds = Math.max(0, until - plan.startTick);
    return {
      id: plan.id,
      productId: plan.productId,
      productName,
      strategy: plan.strategy,
      instruments: [plan.instrument],
      asset: ASSET,
      amount: money(plan.amountMinor),
      minAmount: money(plan.minMinor),
      maxAmount: money(plan.maxMinor),
      timeframeDays: plan.timeframeDays,
      feeShare: ppmText(plan.feeSharePpm),
      risk: this.risk(plan),
      state: plan.state,
      endReason: plan.endReason,
      startTime: iso(plan.startTick),
      endTime: iso(plan.endTick),
      nextIncomeTime: running ? iso(Math.min((Math.floor(now / DAY) + 1) * DAY, plan.endTick)) : null,
      runningDays: Math.floor(runningSeconds / DAY),
      runningSeconds,
      profitShareDays: incomes.length,
      incomeToDate: money(income),
      dailyYield: incomes.length ? ratioText(income, plan.amountMinor * BigInt(incomes.length)) : null,
      realisedReturn: ratioText(income, plan.amountMinor),
      equity: money(plan.amountMinor + closedNet),
      fee: plan.feeMinor === null ? null : money(plan.feeMinor),
      returned: plan.returnedMinor === null ? null : money(plan.returnedMinor),
      endedAt: plan.endedAt,
      openTrades: positions.filter((p) => p.status === 'open').length,
      tradeCount: positions.length,
    };
  }

  private async detail(plan: PlanRow): Promise<SmartPlanDetail> {
    const positions = await this.trading.planPositions([plan.id]);
    const incomes = await incomesOf(this.db, [plan.id]);
    const product = await productById(this.db, plan.productId);
    return {
      ...this.wire(plan, product?.name ?? '', positions, incomes),
      trades: positions.map((p) => this.trade(p)),
      incomes: incomes.map((i) => ({ day: i.day, amount: money(i.amountMinor), postedAt: i.postedAt })),
    };
  }

  private trade(p: PositionRow): SmartTrade {
    const d = p.priceDecimals;
    return {
      positionId: p.id,
      instrument: p.code,
      side: p.direction,
      openPrice: formatMinor(p.openTicks, d),
      closePrice: p.closeTicks === null ? null : formatMinor(p.closeTicks, d),
      openedAt: iso(p.liveTick),
      closedAt: p.closeTick === null ? null : iso(p.closeTick),
      size: formatMinor(p.centilots, 2),
      leverage: p.leverage,
      stopLoss: formatMinor(p.stopLossTicks, d),
      takeProfit: formatMinor(p.takeProfitTicks, d),
      fee: money(p.feeMinor),
      result: p.profitMinor === null ? null : money(p.profitMinor + p.absorbedMinor),
      closeReason: p.closeReason,
    };
  }

  /** Stops the customer's plan now: it is first brought up to the last complete minute, then closed there. */
  async stop(book: Book, userId: number, planId: number): Promise<SmartPlanDetail> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const plan = await this.owned(book, userId, planId);
    if (plan.state !== 'in_progress') throw new ApiError(Code.NOT_FOUND);
    await this.exclusive(plan.id, async () => {
      const fresh = await planById(this.db, plan.id);
      if (fresh?.state !== 'in_progress') return;
      const engine = await this.advance(fresh, Math.min(minuteOf(this.second()), fresh.endTick));
      const current = await planById(this.db, plan.id);
      if (current?.state !== 'in_progress' || !engine) return;
      const open = engine.open;
      await this.execute(current, engine, engine.closeAll('manual'), open);
      await this.end(current, 'stopped', engine.lastT ?? current.lastTick);
    });
    return this.detail((await planById(this.db, plan.id)) as PlanRow);
  }

  // The live runner

  /**
   * Runs `work` as the plan's only stepper: in this process one after another, across nodes under
   * the plan's lease (`smart_plans.lease_*`, 5 minutes, renewed by each claim). A lease held
   * elsewhere is waited for a few seconds, then the call answers 10031 (the runner skips the plan
   * until its next run).
   */
  private async exclusive<T>(planId: number, work: () => Promise<T>, wait = true): Promise<T> {
    const before = this.busy.get(planId) ?? Promise.resolve();
    const leased = async () => {
      for (let attempt = 0; ; attempt++) {
        const t = this.second();
        if (await claimPlan(this.db, planId, this.owner, t, t + 300)) break;
        if (!wait || attempt >= 20) throw new ApiError(Code.SERVICE_UNAVAILABLE);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      try {
        return await work();
      } finally {
        await releasePlan(this.db, planId, this.owner);
      }
    };
    const next = before.catch(() => undefined).then(leased);
    this.busy.set(planId, next);
    try {
      return await next;
    } finally {
      if (this.busy.get(planId) === next) this.busy.delete(planId);
    }
  }

  /** The live runner: every running plan stepped through the minutes completed since its last run. */
  async runLive(): Promise<number> {
    let stepped = 0;
    for (let after = 0; ; ) {
      const page = await runningPlans(this.db, after, 200);
      for (const plan of page) {
        try {
          await this.exclusive(plan.id, () => this.runPlan(plan.id), false);
          stepped++;
        } catch (error) {
          // Another node (or a stop) is stepping this plan now: it is this run's work done there.
          if (error instanceof ApiError && error.code === Code.SERVICE_UNAVAILABLE) continue;
          // One plan's failure (a price source gone stale) must not stop the others; it resumes next run.
          this.logger?.error({ err: error, plan: plan.id }, 'smart: plan run failed');
        }
      }
      if (page.length < 200) break;
      after = page.at(-1)?.id ?? after;
    }
    return stepped;
  }

  private async runPlan(planId: number): Promise<void> {
    const plan = await planById(this.db, planId);
    if (plan?.state !== 'in_progress') return;
    const upTo = Math.min(minuteOf(this.second()), plan.endTick);
    const engine = await this.advance(plan, upTo);
    if (!engine) return;
    const current = (await planById(this.db, planId)) as PlanRow;
    if (current.state !== 'in_progress') return;
    if (engine.stoppedAt !== null) await this.end(current, 'drawdown', engine.stoppedAt);
    else if (upTo >= plan.endTick) {
      const open = engine.open;
      await this.execute(current, engine, engine.closeAll('expiry'), open);
      await this.end(current, 'expired', plan.endTick);
    }
  }

  /**
   * Steps the plan's engine through the bars after its last run up to `upTo`, executing each
   * action through trading at its bar's second and recording progress. The engine is rebuilt from
   * the plan's bars when this process has none at the plan's progress (a restart, another node).
   */
  private async advance(plan: PlanRow, upTo: number): Promise<SmartEngine | null> {
    const instrument = this.instrumentOf(plan.instrument);
    const source = this.trading.market.source;
    let cached = this.engines.get(plan.id);
    if (!cached || cached.through !== plan.lastTick) {
      const engine = new SmartEngine(this.engineConfig(plan.strategy, plan.instrument, plan.amountMinor));
      const bars = barsOf(source, instrument, plan.startTick, plan.lastTick);
      for (let i = 0; i < bars.length; i++)
        engine.step(bars.t[i] as number, BigInt(bars.bid[i] as number), BigInt(bars.ask[i] as number));
      cached = { engine, through: plan.lastTick };
      this.engines.set(plan.id, cached);
    }
    const { engine } = cached;
    let through = plan.lastTick;
    try {
      for (let t = plan.lastTick + MINUTE; t <= upTo && engine.stoppedAt === null; t += MINUTE) {
        const bar = barAt(source, instrument, t);
        if (bar) {
          const before = engine.open;
          const actions = engine.step(t, bar.bid, bar.ask);
          if (actions.length > 0) {
            await this.execute(plan, engine, actions, before);
            await advancePlan(this.db, plan.id, t);
          }
        }
        through = t;
        cached.through = t;
      }
    } catch (error) {
      // The engine may have stepped past what was executed: the next run rebuilds it from the bars.
      this.engines.delete(plan.id);
      throw error;
    }
    if (through > plan.lastTick) await advancePlan(this.db, plan.id, through);
    return engine;
  }

  /** Runs the engine's actions through trading: opens under `smart-<plan>-<t>`, closes under the position's close key. */
  private async execute(
    plan: PlanRow,
    engine: SmartEngine,
    actions: readonly EngineAction[],
    openBefore: EngineTrade | null,
  ): Promise<void> {
    const instrument = this.instrumentOf(plan.instrument);
    for (const action of actions) {
      if (action.kind === 'open') {
        await this.trading.openForPlan(
          { planId: plan.id, userId: plan.userId, language: this.language(plan) },
          {
            marketId: instrument.id,
            t: action.t,
            direction: action.direction,
            centilots: action.centilots,
            leverage: action.leverage,
            stopLossTicks: action.stopLossTicks,
            takeProfitTicks: action.takeProfitTicks,
            marginMinor: action.marginMinor,
            feeMinor: action.feeMinor,
          },
          requestIdOf(plan.id, action.t),
        );
        continue;
      }
      const trade = openBefore ?? engine.trades.at(-1);
      if (!trade) throw new Error(`plan ${plan.id}: a close without a trade`);
      const [row] = (await this.trading.planPositions([plan.id])).filter(
        (p) => p.requestId === requestIdOf(plan.id, trade.t),
      );
      if (!row) throw new Error(`plan ${plan.id}: the position of ${trade.t} is missing`);
      if (row.status === 'open') await this.trading.settle(row, action.reason, action.t, action.closeTicks);
    }
  }

  private language(plan: PlanRow): Language {
    return (LANGUAGES as readonly string[]).includes(plan.language) ? (plan.language as Language) : 'en';
  }

  /**
   * Ends a plan whose positions are all closed: the income of its days not yet recorded (through
   * the end's day), then ONE entry: smart account −(amount + result), wallet +(amount + result −
   * fee), fees +fee (the fee share of a positive result only). The attachment ends the plan and
   * gives its room back.
   */
  private async end(plan: PlanRow, reason: 'expired' | 'stopped' | 'drawdown', at: number): Promise<void> {
    const positions = await this.trading.planPositions([plan.id]);
    if (positions.some((p) => p.status === 'open'))
      throw new Error(`plan ${plan.id}: positions still open at its end`);
    await this.postIncomes(plan, dayOf(Math.max(at - 1, plan.startTick)), positions);
    const result = positions.reduce((a, p) => a + netOfPosition(p), 0n);
    const fee = result > 0n ? (result * plan.feeSharePpm) / PPM : 0n;
    const total = plan.amountMinor + result;
    const returned = total - fee;
    const state: SmartState = reason === 'expired' ? (result > 0n ? 'profit_shared' : 'expired') : 'stopped';
    const book = plan.book;
    const postings = [
      { accountId: await this.ledger.accountId(book, plan.userId, ASSET, SMART_ACCOUNT), amount: -total },
      { accountId: await this.ledger.walletAccount(book, plan.userId, ASSET), amount: returned },
      ...(fee > 0n ? [{ accountId: await this.ledger.systemAccount(book, ASSET, 'fees'), amount: fee }] : []),
    ].filter((p) => p.amount !== 0n);
    const entry = await this.ledger.transfer({
      book,
      kind: 'smart_end',
      idempotencyKey: `smart-end:${plan.id}`,
      actor: reason === 'stopped' ? `customer:${plan.userId}` : 'system:smart',
      reference: `smart:${plan.id}`,
      reason,
      postings,
      attach: this.ends.with({
        id: plan.id,
        state,
        endReason: reason,
        feeMinor: fee,
        returnedMinor: returned,
        lastTick: at,
        endedAt: new Date(this.now()).toISOString(),
      }),
    });
    this.engines.delete(plan.id);
    if (entry.replayed) return;
    const product = await productById(this.db, plan.productId);
    await this.notify(plan, reason === 'drawdown' ? 'smart_drawdown_stop' : 'smart_ended', {
      product: product?.name ?? '',
      amount: toDisplay(money(plan.amountMinor), ASSET),
      result: toDisplay(money(result), ASSET),
      fee: toDisplay(money(fee), ASSET),
      returned: toDisplay(money(returned), ASSET),
    });
  }

  /** Records each day of the plan through `lastDay` not yet recorded: the trades closed that day, less their fees. */
  private async postIncomes(plan: PlanRow, lastDay: string, known?: readonly PositionRow[]): Promise<void> {
    const positions = known ?? (await this.trading.planPositions([plan.id]));
    const recorded = new Set((await incomesOf(this.db, [plan.id])).map((i) => i.day));
    const product = await productById(this.db, plan.productId);
    for (let day = dayOf(plan.startTick); day <= lastDay; day = addDays(day, 1)) {
      if (recorded.has(day)) continue;
      // A close belongs to the day its bar ends in: the bar of 00:00:00 ends the day before.
      const closed = positions.filter(
        (p) => p.status === 'closed' && p.closeTick !== null && dayOf(p.closeTick - 1) === day,
      );
      const amount = closed.reduce((a, p) => a + netOfPosition(p), 0n);
      if (
        !(await insertIncome(this.db, {
          planId: plan.id,
          day,
          amountMinor: amount,
          trades: closed.length,
          postedAt: new Date(this.now()).toISOString(),
        }))
      )
        continue;
      if (closed.length > 0)
        await this.notify(plan, 'smart_income', {
          product: product?.name ?? '',
          day,
          amount: toDisplay(money(amount), ASSET),
          trades: String(closed.length),
        });
    }
  }

  /** The daily income: each running plan's complete days not yet recorded (idempotent: a day is recorded once). */
  async postDailyIncome(): Promise<number> {
    const today = dayOf(this.second());
    const yesterday = addDays(today, -1);
    let posted = 0;
    for (const active of await plansActiveOn(this.db, dayStart(yesterday), dayStart(today))) {
      if (active.state !== 'in_progress') continue;
      await this.exclusive(active.id, async () => {
        const plan = await planById(this.db, active.id);
        if (plan?.state !== 'in_progress') return;
        // Only days the live runner has stepped through to their end: a later run records the rest.
        const complete = addDays(dayOf(plan.lastTick), -1);
        await this.postIncomes(plan, complete < yesterday ? complete : yesterday);
      });
      posted++;
    }
    return posted;
  }

  private async notify(plan: PlanRow, kind: NoticeKind, params: Record<string, string>): Promise<void> {
    if (!this.notices) return;
    try {
      await this.notices.notify(plan.userId, this.language(plan), kind, params);
    } catch (error) {
      this.logger?.warn({ err: error, plan: plan.id }, 'smart: notice failed');
    }
  }

  /** The smart account of each customer equals what their running plans hold: amount + closed results − open margins and fees. */
  subLedger(): SubLedger {
    return {
      name: 'smart.plans',
      accountKind: SMART_ACCOUNT,
      asset: ASSET,
      expected: async () => {
        const plans: PlanRow[] = [];
        for (let after = 0; ; ) {
          const page = await runningPlans(this.db, after, 1000);
          plans.push(...page);
          if (page.length < 1000) break;
          after = page.at(-1)?.id ?? after;
        }
        const positions = await this.trading.planPositions(plans.map((p) => p.id));
        return plans.map((plan) => ({
          book: plan.book,
          ownerId: plan.userId,
          amount:
            plan.amountMinor +
            positions
              .filter((p) => p.planId === plan.id)
              .reduce(
                (a, p) => a + (p.status === 'closed' ? netOfPosition(p) : -(p.marginMinor + p.feeMinor)),
                0n,
              ),
        }));
      },
      alertMessage: (count) => `smart accounts differ from their plans for ${count} customer(s)`,
    };
  }

  // Staff

  private fields(body: z.infer<typeof smartProductBody>): ProductFields {
    const instrument = body.instruments[0] as string;
    const strategy = STRATEGIES[body.strategy];
    // A product runs its strategy on an instrument the rule is written for (and quoted in USD or USDT).
    if (!strategy.instruments.includes(instrument))
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'instruments', issue: 'not_for_strategy' }]);
    this.instrumentOf(instrument);
    const parse = (path: string, text: string) => {
      try {
        return parseMinor(text, SETTLEMENT_SCALE);
      } catch (error) {
        if (error instanceof MoneyFormatError)
          throw new ApiError(Code.INVALID_INPUT, [{ path, issue: 'too_many_decimals' }]);
        throw error;
      }
    };
    const minMinor = parse('minAmount', body.minAmount);
    const maxMinor = parse('maxAmount', body.maxAmount);
    const capacityMinor = parse('capacity', body.capacity);
    if (minMinor <= 0n || maxMinor < minMinor)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'maxAmount', issue: 'below_minimum' }]);
    if (capacityMinor < minMinor)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'capacity', issue: 'below_minimum' }]);
    return {
      name: body.name,
      strategy: body.strategy,
      instrument,
      asset: ASSET,
      timeframes: [...new Set(body.timeframes)].sort((a, b) => a - b),
      minMinor,
      maxMinor,
      capacityMinor,
      feeSharePpm: ppmOf(body.feeShare),
      enabled: body.enabled,
    };
  }

  async adminProducts(): Promise<SmartProduct[]> {
    return this.products();
  }

  async createProduct(actor: string, body: z.infer<typeof smartProductBody>): Promise<SmartProduct> {
    const fields = this.fields(body);
    const row = await this.db.transaction(async (tx) => {
      const p = await insertProduct(tx, fields);
      await this.audit.appendInTx(tx, [
        { actor, action: 'smart.product.created', subject: `smart:${p.id}`, data: body },
      ]);
      return p;
    });
    return this.wireProduct(row, null);
  }

  /** A change applies to new plans only: each plan keeps the terms it was bought at. */
  async updateProduct(
    actor: string,
    body: z.infer<typeof smartProductBody> & { id: number },
  ): Promise<SmartProduct> {
    const before = await productById(this.db, body.id);
    if (!before) throw new ApiError(Code.NOT_FOUND);
    const fields = this.fields(body);
    if (fields.capacityMinor < before.takenMinor)
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'capacity', issue: 'below_taken' }]);
    const row = await this.db.transaction(async (tx: Queryable) => {
      const p = await updateProduct(tx, body.id, fields);
      if (!p) throw new ApiError(Code.NOT_FOUND);
      await this.audit.appendInTx(tx, [
        {
          actor,
          action: 'smart.product.updated',
          subject: `smart:${p.id}`,
          data: {
            before: {
              ...before,
              minMinor: String(before.minMinor),
              maxMinor: String(before.maxMinor),
              capacityMinor: String(before.capacityMinor),
              takenMinor: String(before.takenMinor),
              feeSharePpm: String(before.feeSharePpm),
            },
            after: body,
          },
        },
      ]);
      return p;
    });
    return this.wireProduct(row, (await this.liveRecord(row.id)).realised);
  }

  /** The plan monitor: plans with owner, equity and drawdown from the highest closed-trade equity. */
  async monitor(query: { state?: SmartState; productId?: number }): Promise<SmartPlanMonitorItem[]> {
    const plans = await plansForMonitor(this.db, {
      state: query.state ?? null,
      productId: query.productId ?? null,
    });
    const wired = await this.wirePlans(plans);
    const positions = await this.trading.planPositions(plans.map((p) => p.id));
    return plans.map((plan, i) => {
      let equity = plan.amountMinor;
      let high = equity;
      for (const p of positions)
        if (p.planId === plan.id && p.status === 'closed') {
          equity += netOfPosition(p);
          if (equity > high) high = equity;
        }
      return {
        ...(wired[i] as SmartPlan),
        userId: plan.userId,
        customer: plan.customer,
        highWater: money(high),
        drawdown: ratioText(high - equity, high),
      };
    });
  }
}

export const requestIdOf = (planId: number, t: number) => `smart-${planId}-${t}`;

/** The live runner, every minute: plans step through the minutes completed since their last run. */
export function smartLiveJob(smart: SmartService): Job {
  return {
    name: 'smart.live',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await smart.runLive();
    },
  };
}

/** Each product's backtest of the day, computed once a day after 00:00 UTC so a product page need not wait for it. */
export function smartBacktestJob(smart: SmartService): Job {
  return {
    name: 'smart.backtests',
    everyMs: 15 * 60_000,
    runKey: dailyKey,
    run: async () => {
      await smart.refreshBacktests();
    },
  };
}

/** The daily income: every 15 minutes, each running plan's complete days not yet recorded (yesterday's after 00:00 UTC). */
export function smartIncomeJob(smart: SmartService): Job {
  return {
    name: 'smart.income',
    everyMs: 15 * 60_000,
    runKey: (now) => `${now.toISOString().slice(0, 13)}:${Math.floor(now.getUTCMinutes() / 15)}`,
    run: async () => {
      await smart.postDailyIncome();
    },
  };
}
