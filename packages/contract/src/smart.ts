import { z } from 'zod/mini';
import { wireId } from './ids.ts';
import { decimalString } from './ledger.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { CLOSE_REASONS, DIRECTIONS } from './trading.ts';
import { amountInput } from './wallet.ts';

/**
 * Smart trading plans (spec §1, §2 `/trading`, §3 Smart plan, §4 plan income, §5, §7
 * `order/buySmart`, `order/listSmartOrder`, §8 10010 / 10012 / 10015 / 10016; DESIGN §2 rule 5).
 *
 * A plan runs a named, documented strategy on the platform's own prices: it opens and closes real
 * positions through the trading engine on the margin the customer put into the plan. Its income is
 * what those positions realised (gains and losses, less their trading fees), posted day by day; at
 * the end principal ± result comes back, the platform's fee taken only from a positive result.
 * Every yield shown is a past, realised figure with its period, never a promise. Live book only:
 * the demo book answers 10043.
 *
 * Ratios are decimal strings ("0.2" is 20 %); money is decimal strings of the plan's asset (USDT).
 */

/** The strategies the engine runs; each is documented on the product page under `docKey`. */
export const SMART_STRATEGIES = ['ma_trend', 'mean_reversion', 'breakout'] as const;
export type SmartStrategy = (typeof SMART_STRATEGIES)[number];

/** A ratio with at most 6 decimals ("0.2"); may be negative for a result. */
export const smartRatio = z.string().check(z.regex(/^-?\d{1,6}(\.\d{1,6})?$/));
/** A share between 0 and 1 with at most 6 decimals. */
export const smartShare = z.string().check(z.regex(/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/));

/** A strategy's risk limits: what every trade carries and what stops the whole plan. */
export const smartRisk = z.object({
  /** Stop loss of every trade: this move of the price against the position, from its open price. */
  stopLoss: smartRatio,
  /** Take profit of every trade: this move in the position's favour. */
  takeProfit: smartRatio,
  /** The leverage of every trade (within the instrument's retail cap, see trading terms). */
  leverage: z.int(),
  /** The share of the plan's equity a trade puts up as margin. */
  marginShare: smartShare,
  /** The plan stops (positions closed, money returned) when its equity falls this far below its highest. */
  drawdownStop: smartRatio,
});
export type SmartRisk = z.infer<typeof smartRisk>;

export const smartStrategyInfo = z.object({
  key: z.enum(SMART_STRATEGIES),
  /** Texts of the name and the plain-words description (web locale keys `smart.strategy.<key>.*`). */
  docKey: z.string(),
  /** The instruments it is meant for (market codes). */
  instruments: z.array(z.string()),
  /** Bars it decides on: one-minute bars aggregated to this many minutes. */
  barMinutes: z.int(),
  /** The indicator settings, by name (periods in bars, multipliers). */
  parameters: z.record(z.string(), z.number()),
  risk: smartRisk,
});
export type SmartStrategyInfo = z.infer<typeof smartStrategyInfo>;

export const SMART_ASSETS = ['USDT'] as const;

/**
 * A realised figure with the period it was realised over (never a forecast). Its parts multiply
 * to its whole: dailyYield × days = periodReturn (simple, not compounded; each rounded to 6
 * decimals).
 */
export const smartRealisedYield = z.object({
  /** Mean realised daily yield: result / amount / days. */
  dailyYield: smartRatio,
  /** Realised result / amount. */
  periodReturn: smartRatio,
  from: z.string(),
  to: z.string(),
  /**
   * The days the money was in the plan (its actual duration, a fraction for a part day); for all
   * plans together, their mean duration weighted by amount.
   */
  days: z.string().check(z.regex(/^\d{1,6}(\.\d{1,6})?$/)),
});
export type SmartRealisedYield = z.infer<typeof smartRealisedYield>;

export const smartProduct = z.object({
  id: z.int(),
  name: z.string(),
  strategy: smartStrategyInfo,
  asset: z.enum(SMART_ASSETS),
  /** The instruments this product's plans trade (codes of the market list). */
  instruments: z.array(z.string()),
  /** The timeframes offered, in days (another is 10012). */
  timeframes: z.array(z.int()),
  minAmount: decimalString,
  maxAmount: decimalString,
  /** The most all plans of the product together may hold, and what they hold now. */
  capacity: decimalString,
  taken: decimalString,
  /** The platform's fee: this share of a plan's positive realised result (0: none), taken at the end only. */
  feeShare: smartShare,
  /** What every trade of a plan costs, as the instrument's trading terms state it: the fee on each opening's notional and the bid-ask spread. */
  tradingFeeRate: z.string(),
  spreadRate: z.string(),
  enabled: z.boolean(),
  soldOut: z.boolean(),
  /** The realised yield of all this product's plans (past, with its period); null before any plan ran a day. */
  realised: z.nullable(smartRealisedYield),
});
export type SmartProduct = z.infer<typeof smartProduct>;

export const smartProductParams = z.object({ id: wireId() });

/** One point of an equity curve: the end of a UTC day and the equity then. */
export const smartEquityPoint = z.object({ t: z.string(), equity: decimalString });

/**
 * The strategy's backtest over the past year of the platform's one-minute bars, run by the same
 * engine that runs live plans, on a reference amount, with the platform's fees and the product's
 * fee share. Past figures: they say what the rule did, not what it will do.
 */
export const smartBacktest = z.object({
  productId: z.int(),
  strategy: z.enum(SMART_STRATEGIES),
  instruments: z.array(z.string()),
  from: z.string(),
  to: z.string(),
  bars: z.int(),
  amount: decimalString,
  finalEquity: decimalString,
  equity: z.array(smartEquityPoint),
  totalReturn: smartRatio,
  annualisedReturn: smartRatio,
  /** The worst fall of equity from a previous high, as a share of that high. */
  maxDrawdown: smartRatio,
  /** Mean / standard deviation of daily equity returns × √365; null with no variation. */
  sharpe: z.nullable(z.string()),
  /** Winning trades / trades; null with no trade. */
  winRate: z.nullable(smartRatio),
  /** Gross gains / gross losses; null without a losing trade. */
  profitFactor: z.nullable(z.string()),
  trades: z.int(),
  fees: decimalString,
  /** The market's own change over the same period (first to last close of the first instrument): the benchmark. */
  marketChange: smartRatio,
  /** The drawdown stop fired during the year (the backtest then stops trading, as a plan would). */
  stoppedByDrawdown: z.boolean(),
});
export type SmartBacktest = z.infer<typeof smartBacktest>;

export const SMART_STATES = ['in_progress', 'profit_shared', 'expired', 'stopped'] as const;
export type SmartState = (typeof SMART_STATES)[number];
/** Why a plan ended: its timeframe ran out, the customer stopped it, or its drawdown stop fired. */
export const SMART_END_REASONS = ['expired', 'stopped', 'drawdown'] as const;

/** One plan of a product, as its live record lists it. */
export const smartLivePlan = z.object({
  planId: z.int(),
  amount: decimalString,
  timeframeDays: z.int(),
  state: z.enum(SMART_STATES),
  /** The trades it made (0: it made none, and its realised figures are not a yield of the strategy). */
  trades: z.int(),
  realised: smartRealisedYield,
});

export const smartLiveRecord = z.object({
  plans: z.int(),
  running: z.int(),
  /** All plans together (sum of results / sum of amounts), with the period they cover; null while none made a trade. */
  realised: z.nullable(smartRealisedYield),
  /** Each plan's realised yield with its period, newest first (at most 100). */
  items: z.array(smartLivePlan),
});
export type SmartLiveRecord = z.infer<typeof smartLiveRecord>;

export const smartProductDetail = z.object({
  product: smartProduct,
  /** Null while the year's backtest has not been computed yet today. */
  backtest: z.nullable(smartBacktest),
  live: smartLiveRecord,
});
export type SmartProductDetail = z.infer<typeof smartProductDetail>;

export const smartQuoteBody = z.object({
  productId: z.int().check(z.minimum(1)),
  amount: amountInput,
  timeframeDays: z.int().check(z.minimum(1), z.maximum(3650)),
});

/** Everything the customer sees before committing: the figures the commit applies. */
export const smartQuote = z.object({
  ...quoteFields,
  /** When the quote was issued, on the server's clock (epoch seconds): its life is expiresAt − quoteTime. */
  quoteTime: z.int(),
  productId: z.int(),
  productName: z.string(),
  strategy: z.enum(SMART_STRATEGIES),
  instruments: z.array(z.string()),
  asset: z.enum(SMART_ASSETS),
  amount: decimalString,
  timeframeDays: z.int(),
  feeShare: smartShare,
  /** Each trade's costs: the fee on its opening notional and the bid-ask spread (the instrument's trading terms). */
  tradingFeeRate: z.string(),
  spreadRate: z.string(),
  risk: smartRisk,
  /** Now, when the plan starts trading; the end; the first income time (the next 00:00 UTC). */
  startTime: z.string(),
  endTime: z.string(),
  firstIncomeTime: z.string(),
  /**
   * Minutes of the window (startTime to endTime) its instrument's market is open: the plan trades
   * only then. Fewer than the window's minutes (a forex plan over a weekend) is warned of before
   * the customer confirms.
   */
  marketOpenMinutes: z.int(),
  /** The backtest's worst drawdown and return (past figures), when computed. */
  backtestMaxDrawdown: z.nullable(smartRatio),
  backtestReturn: z.nullable(smartRatio),
  available: decimalString,
});
export type SmartQuote = z.infer<typeof smartQuote>;

const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/** Commit a quote: the amount leaves the balance into the plan's own account (20004). */
export const smartBuyBody = z.object({ quoteId, requestId });

/** One trade of a plan: a real position of the trading engine. */
export const smartTrade = z.object({
  /** The position's id (its order in the order list). */
  positionId: z.int(),
  instrument: z.string(),
  side: z.enum(DIRECTIONS),
  openPrice: z.string(),
  closePrice: z.nullable(z.string()),
  openedAt: z.string(),
  closedAt: z.nullable(z.string()),
  /** Lots. */
  size: z.string(),
  /** What the lots are in the instrument's units (size × lot size), and the unit: the base currency, or null when it has none (then units of the instrument). */
  units: z.string(),
  unit: z.nullable(z.string()),
  leverage: z.int(),
  stopLoss: z.string(),
  takeProfit: z.string(),
  fee: decimalString,
  /** Realised profit or loss of the price move (before the fee); null while open. */
  result: z.nullable(decimalString),
  closeReason: z.nullable(z.enum(CLOSE_REASONS)),
});
export type SmartTrade = z.infer<typeof smartTrade>;

/** One income day: the day's realised result (closed trades' results less their fees), posted at its income time. */
export const smartIncomeDay = z.object({ day: z.string(), amount: decimalString, postedAt: z.string() });

/** A plan with every field of spec §3. */
export const smartPlan = z.object({
  id: z.int(),
  productId: z.int(),
  productName: z.string(),
  strategy: z.enum(SMART_STRATEGIES),
  instruments: z.array(z.string()),
  asset: z.enum(SMART_ASSETS),
  amount: decimalString,
  /** The product's amount range when bought. */
  minAmount: decimalString,
  maxAmount: decimalString,
  timeframeDays: z.int(),
  feeShare: smartShare,
  risk: smartRisk,
  state: z.enum(SMART_STATES),
  endReason: z.nullable(z.enum(SMART_END_REASONS)),
  startTime: z.string(),
  endTime: z.string(),
  /** The next daily income posting; null once ended. */
  nextIncomeTime: z.nullable(z.string()),
  /** Running time in whole days and seconds so far. */
  runningDays: z.int(),
  runningSeconds: z.int(),
  /** Days whose realised income was positive (the spec's days of profit share). */
  profitShareDays: z.int(),
  /** Realised so far: income posted (sum of trades' results less their fees). */
  incomeToDate: decimalString,
  /** Past realised daily yield: incomeToDate / amount / days the money was in the plan up to the last income day; null before the first income day. */
  dailyYield: z.nullable(smartRatio),
  /** The spec's expected return, shown only as the realised return so far (incomeToDate / amount). */
  realisedReturn: smartRatio,
  /** The plan's equity now: amount + income posted + results of closed trades not yet posted. */
  equity: decimalString,
  /** At the end: the platform's fee (share of a positive result) and what came back. */
  fee: z.nullable(decimalString),
  returned: z.nullable(decimalString),
  endedAt: z.nullable(z.string()),
  openTrades: z.int(),
  tradeCount: z.int(),
});
export type SmartPlan = z.infer<typeof smartPlan>;

export const smartPlanDetail = z.extend(smartPlan, {
  trades: z.array(smartTrade),
  incomes: z.array(smartIncomeDay),
});
export type SmartPlanDetail = z.infer<typeof smartPlanDetail>;

export const listSmartQuery = z.object({ state: z.optional(z.enum(SMART_STATES)) });
export const smartPlanParams = z.object({ id: wireId() });
/** Stop a plan now: open positions closed at market, principal ± result back, fee on a positive result. */
export const smartStopBody = z.object({ planId: z.int().check(z.minimum(1)) });

// Staff

export const SMART_STAFF = STAFF_DUTIES.money.roles;

export const smartProductBody = /* @__PURE__ */ z.object({
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(60)),
  strategy: z.enum(SMART_STRATEGIES),
  instruments: z
    .array(z.string().check(z.regex(/^[A-Z0-9._-]{2,20}$/)))
    .check(z.minLength(1), z.maxLength(1)),
  timeframes: z.array(z.int().check(z.minimum(1), z.maximum(3650))).check(z.minLength(1), z.maxLength(12)),
  minAmount: amountInput,
  maxAmount: amountInput,
  capacity: amountInput,
  feeShare: smartShare,
  enabled: z.boolean(),
});
export type SmartProductBody = z.infer<typeof smartProductBody>;
export const smartProductUpdateBody = /* @__PURE__ */ z.extend(smartProductBody, {
  id: z.int().check(z.minimum(1)),
});

/** The plan monitor: each plan with its owner, equity and drawdown from its high. */
export const smartPlanMonitorItem = /* @__PURE__ */ z.extend(smartPlan, {
  userId: z.int(),
  customer: z.string(),
  /** The plan's highest equity and how far below it the plan is now. */
  highWater: decimalString,
  drawdown: smartRatio,
});
export type SmartPlanMonitorItem = z.infer<typeof smartPlanMonitorItem>;

export const smartPlanMonitorQuery = /* @__PURE__ */ z.object({
  state: z.optional(z.enum(SMART_STATES)),
  productId: z.optional(wireId()),
});

export const smartAdminCalls = {
  listSmartProducts: {
    method: 'GET',
    path: '/smart/products',
    summary: 'Every smart-plan product with what its plans hold',
    roles: SMART_STAFF,
    data: z.array(smartProduct),
  },
  createSmartProduct: {
    method: 'POST',
    path: '/smart/products',
    summary:
      'Create a smart-plan product (strategy, instrument, timeframes, amounts, capacity, fee share); audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: smartProductBody,
    data: smartProduct,
  },
  updateSmartProduct: {
    method: 'POST',
    path: '/smart/products/update',
    summary: 'Change a smart-plan product (new plans only: a plan keeps the terms it was bought at); audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: smartProductUpdateBody,
    data: smartProduct,
  },
  smartPlanMonitor: {
    method: 'GET',
    path: '/smart/plans',
    summary: 'Smart plans with their owner, equity, drawdown and trades count, newest first (200 at most)',
    roles: SMART_STAFF,
    query: smartPlanMonitorQuery,
    data: z.array(smartPlanMonitorItem),
  },
} as const satisfies Record<string, AdminCallDefinition>;
