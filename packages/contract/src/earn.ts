import { z } from 'zod/mini';
import { SOLD_OUT_REASONS } from './earnFacts.ts';
import { wireId } from './ids.ts';
import { bookSchema, decimalString } from './ledger.ts';
import { TX_HASH } from './money.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { reviewCalls } from './review.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadId } from './uploads.ts';
import { amountInput } from './wallet.ts';

/**
 * Earn: crypto funds and VIP funds with daily settlement (spec §1, §2 `/financial/*`, §3 Fund, §4
 * fund status, §7 `finance/vipProject/*` and `finance/item/*`; DESIGN §2 rules 3 and 4).
 *
 * Interest is paid from a funded reserve of the product (staff fund it with an audited ledger
 * transfer). A fixed-term static investment moves its whole promised interest from the product's
 * reserve into the product's "owed" account when it is bought, in the same ledger entry as the
 * principal; each day's payment comes from there, and early redemption returns what is left to
 * the reserve. A product whose reserve cannot cover a new investment's interest is sold out.
 *
 * Rates are ratios as decimal strings ("0.12" is 12 %). Interest accrues on an actual/365 basis
 * from 00:00 UTC the day after the purchase: the cumulative interest after day k is
 * floor(amount × annualRate × k / 365) in minor units, and day k pays the difference, so the days
 * sum exactly to the total.
 */

export const EARN_TYPES = ['fund', 'vip'] as const;
export type EarnType = (typeof EARN_TYPES)[number];
/** static: a fixed rate for the term; dynamic: the realised daily return of a basket (past figures only). */
export const EARN_INCOMES = ['static', 'dynamic'] as const;
export type EarnIncome = (typeof EARN_INCOMES)[number];
const earnAsset = z.enum(['USDT', 'USDC', 'BTC', 'ETH']);

/** A ratio with at most 6 decimals (e.g. "0.12"; a dynamic day's rate may be negative). */
export const rateRatio = z.string().check(z.regex(/^-?\d{1,4}(\.\d{1,6})?$/));

/** One day of a dynamic product's published rate (the basket's realised return) and its unit price. */
export const earnRateDay = z.object({
  day: z.string(),
  /** The basket's realised return that day (may be zero or negative). */
  rate: rateRatio,
  /** The unit price after that day, from 1 at the product's first day. */
  unitPrice: decimalString,
});
export type EarnRateDay = z.infer<typeof earnRateDay>;

export const earnProduct = z.object({
  id: z.int(),
  type: z.enum(EARN_TYPES),
  name: z.string(),
  asset: earnAsset,
  income: z.enum(EARN_INCOMES),
  /** Lock days; null: flexible (redeem any day without a penalty). */
  termDays: z.nullable(z.int()),
  /** Static: the annual rate, and the daily rate it gives (annual / 365). Dynamic: null. */
  annualRate: z.nullable(rateRatio),
  dailyRate: z.nullable(rateRatio),
  /** Dynamic: the basket's instruments (codes of the market list) and how its return is taken. */
  basket: z.array(z.string()),
  /** Dynamic: the realised annual rate of the last 30 published days (past, never promised); null before a day is published. */
  trailingRate: z.nullable(rateRatio),
  minAmount: decimalString,
  maxAmount: decimalString,
  /** The most the product takes from all customers together, and what is taken. */
  capacity: decimalString,
  invested: decimalString,
  /** Early redemption of a fixed-term investment costs this share of principal (spec §9 `num`), plus the income paid. */
  penaltyRate: rateRatio,
  /** VIP: open to customers with a verified identity (the rule stated on the page). */
  requiresKyc: z.boolean(),
  /** One investment in progress per customer (spec 10024). */
  onePerCustomer: z.boolean(),
  /** Interest reserved for current investors (fixed-term static), and the reserve not yet promised, in this book. */
  reservedInterest: decimalString,
  reserveFree: decimalString,
  /**
   * The most a new investment can be now, in this book: the least of the maximum, the capacity
   * left and (fixed-term static) what the free reserve can promise interest for; 0 when sold out.
   */
  investable: decimalString,
  enabled: z.boolean(),
  /** Null when it can be bought. */
  soldOut: z.nullable(z.enum(SOLD_OUT_REASONS)),
});
export type EarnProduct = z.infer<typeof earnProduct>;

export const earnProductsQuery = z.object({
  income: z.optional(z.enum(EARN_INCOMES)),
  asset: z.optional(earnAsset),
  term: z.optional(z.enum(['flexible', 'fixed'])),
});

export const earnProductParams = z.object({ id: wireId() });

/** Preview a purchase: the figures the commit posts. */
export const earnQuoteBody = z.object({
  productId: z.int().check(z.minimum(1)),
  amount: amountInput,
});

/** What redeeming on one day of the term would give (principal − penalty − income paid). */
export const earnRedemptionDay = z.object({
  /** The UTC day redeemed on (income paid up to the day before). */
  day: z.string(),
  penalty: decimalString,
  incomeToDate: decimalString,
  receive: decimalString,
});

export const earnQuote = z.object({
  ...quoteFields,
  productId: z.int(),
  productName: z.string(),
  type: z.enum(EARN_TYPES),
  income: z.enum(EARN_INCOMES),
  asset: earnAsset,
  amount: decimalString,
  termDays: z.nullable(z.int()),
  annualRate: z.nullable(rateRatio),
  dailyRate: z.nullable(rateRatio),
  /** Static: one day's interest at the rate (the exact days differ by at most one minor unit). */
  dailyProfit: z.nullable(decimalString),
  /** Fixed-term static: the exact interest of the term, held from the reserve now. Else null. */
  estimatedProfit: z.nullable(decimalString),
  /** Now: when the money leaves the balance. */
  entrustTime: z.string(),
  /** 00:00 UTC the day after: the first day of interest. */
  accrualStart: z.string(),
  /** Fixed term: when the term ends; null when flexible. */
  expiryTime: z.nullable(z.string()),
  /** Fixed term: when principal and last interest are paid (the settlement after the end, within 15 minutes). */
  collectionTime: z.nullable(z.string()),
  penaltyRate: rateRatio,
  /** Fixed-term static: what early redemption would give on each day of the term. */
  redemption: z.array(earnRedemptionDay),
  /** The customer's balance available in the asset, in this book. */
  available: decimalString,
});
export type EarnQuote = z.infer<typeof earnQuote>;

const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/** Buy from the available balance, at a quote's figures. */
export const earnApplyBody = z.object({ quoteId, requestId });

/** Buy by a transfer with a payment proof (upload purpose fund_proof, 5 MB): staff review it; live book only. */
export const earnProofBody = z.object({
  quoteId,
  proof: uploadId,
  txHash: z.string().check(z.trim(), z.regex(TX_HASH)),
});

/** pending: a payment proof waits for staff; rejected: staff refused it (nothing was moved). */
export const EARN_STATES = ['pending', 'in_progress', 'redeemed', 'expired', 'rejected'] as const;
export type EarnState = (typeof EARN_STATES)[number];

export const earnInvestment = z.object({
  id: z.int(),
  productId: z.int(),
  productName: z.string(),
  type: z.enum(EARN_TYPES),
  income: z.enum(EARN_INCOMES),
  asset: earnAsset,
  amount: decimalString,
  termDays: z.nullable(z.int()),
  annualRate: z.nullable(rateRatio),
  dailyRate: z.nullable(rateRatio),
  penaltyRate: rateRatio,
  payWith: z.enum(['balance', 'proof']),
  status: z.enum(EARN_STATES),
  entrustTime: z.string(),
  accrualStart: z.nullable(z.string()),
  expiryTime: z.nullable(z.string()),
  collectionTime: z.nullable(z.string()),
  /** Fixed-term static: the interest of the term. */
  totalInterest: z.nullable(decimalString),
  /** Income paid so far, and on the last settled day. */
  incomeToDate: z.nullable(decimalString),
  incomeLastDay: z.nullable(decimalString),
  redeemedAt: z.nullable(z.string()),
  /** What early redemption paid. */
  received: z.nullable(decimalString),
  /** Staff's reason for a rejected proof. */
  reason: z.nullable(z.string()),
  /**
   * The product's reserve could not pay a day: no income since `since` (a UTC day) until staff fund
   * it, then the days owed are paid. `owed`: the income of those days so far. Null when paid.
   */
  paused: z.nullable(
    z.object({ reason: z.literal('reserve_short'), since: z.string(), owed: decimalString }),
  ),
});
export type EarnInvestment = z.infer<typeof earnInvestment>;

export const earnIncomeDay = z.object({
  day: z.string(),
  amount: decimalString,
  rate: z.nullable(rateRatio),
});

export const earnInvestmentDetail = z.extend(earnInvestment, {
  incomes: z.array(earnIncomeDay),
});
export type EarnInvestmentDetail = z.infer<typeof earnInvestmentDetail>;

export const myInvestmentsQuery = z.object({
  itemType: z.optional(z.enum(EARN_TYPES)),
  status: z.optional(z.enum(EARN_STATES)),
});

/** The summary of one kind of investment (fund or VIP); both when absent. */
export const myInvestmentSummaryQuery = z.object({ itemType: z.optional(z.enum(EARN_TYPES)) });

export const myInvestmentSummary = z.object({
  asset: earnAsset,
  invested: decimalString,
  incomeToday: decimalString,
  totalIncome: decimalString,
});

export const earnWallet = z.object({
  balances: z.array(z.object({ asset: earnAsset, available: decimalString })),
  /** Where to send a transfer paid by proof (the customer's deposit address); null in the demo book or without a network. */
  payIn: z.nullable(z.object({ network: z.string(), asset: z.string(), address: z.string() })),
});

export const earnPriceQuery = z.object({ id: wireId() });
export const earnPrice = z.object({ productId: z.int(), days: z.array(earnRateDay) });

export const earnInvestmentParams = z.object({ id: wireId() });

/** Preview an early redemption today. */
export const earnRedeemQuoteBody = z.object({ id: z.int().check(z.minimum(1)) });
export const earnRedeemQuote = z.object({
  ...quoteFields,
  id: z.int(),
  asset: earnAsset,
  amount: decimalString,
  penalty: decimalString,
  incomeToDate: decimalString,
  /** What is paid now. */
  receive: decimalString,
  /** What the investment would pay by holding to the end (principal + interest); null when flexible or dynamic. */
  atMaturity: z.nullable(decimalString),
});
export type EarnRedeemQuote = z.infer<typeof earnRedeemQuote>;
export const earnRedeemBody = z.object({ quoteId });

// Staff

export const earnProductBody = /* @__PURE__ */ z.object({
  type: z.enum(EARN_TYPES),
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(60)),
  asset: earnAsset,
  income: z.enum(EARN_INCOMES),
  termDays: z.nullable(z.int().check(z.minimum(1), z.maximum(1825))),
  annualRate: z.nullable(z.string().check(z.regex(/^\d{1,2}(\.\d{1,6})?$/))),
  basket: z.array(z.string().check(z.regex(/^[A-Za-z0-9._-]{1,20}$/))).check(z.maxLength(10)),
  minAmount: amountInput,
  maxAmount: amountInput,
  capacity: amountInput,
  penaltyRate: z.string().check(z.regex(/^0(\.\d{1,6})?$/)),
  requiresKyc: z.boolean(),
  onePerCustomer: z.boolean(),
  enabled: z.boolean(),
});
export type EarnProductBody = z.infer<typeof earnProductBody>;
export const earnProductUpdateBody = /* @__PURE__ */ z.extend(earnProductBody, {
  id: z.int().check(z.minimum(1)),
});

export const earnProductAdmin = /* @__PURE__ */ z.object({
  product: earnProduct,
  /** Per book: the reserve, what is promised to current investors, and investments in progress. */
  books: z.array(
    z.object({
      book: bookSchema,
      reserveFree: decimalString,
      reservedInterest: decimalString,
      invested: decimalString,
      investments: z.int(),
      /** The first day its reserve could not pay in this book (off sale until funded); null when none. */
      shortSince: z.nullable(z.string()),
    }),
  ),
});

export const earnFundBody = /* @__PURE__ */ z.object({
  productId: z.int().check(z.minimum(1)),
  book: bookSchema,
  amount: amountInput,
  reason: z.string().check(z.trim(), z.minLength(3), z.maxLength(200)),
  /** One funding per id: a repeated click funds once. */
  requestId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/))),
});

export const earnProofListItem = /* @__PURE__ */ z.object({
  id: z.int(),
  userId: z.int(),
  customer: z.string(),
  productName: z.string(),
  asset: earnAsset,
  amount: decimalString,
  txHash: z.string(),
  createdAt: z.string(),
});
export const earnProofItem = /* @__PURE__ */ z.extend(earnProofListItem, {
  proof: z.string(),
  payInAddress: z.nullable(z.string()),
  status: z.enum(EARN_STATES),
  reason: z.nullable(z.string()),
});

const EARN_STAFF = STAFF_DUTIES.money.roles;

export const earnProofReviewCalls = /* @__PURE__ */ reviewCalls({
  path: '/earn/proofs',
  noun: 'fund payment proof',
  listItem: earnProofListItem,
  item: earnProofItem,
  readers: EARN_STAFF,
  deciders: EARN_STAFF,
});

export const earnAdminCalls = {
  listEarnProducts: {
    method: 'GET',
    path: '/earn/products',
    summary: 'Every earn product with its reserve and what is promised to current investors, per book',
    roles: EARN_STAFF,
    data: z.array(earnProductAdmin),
  },
  createEarnProduct: {
    method: 'POST',
    path: '/earn/products',
    summary: 'Create a fund or VIP product; audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: earnProductBody,
    data: earnProductAdmin,
  },
  updateEarnProduct: {
    method: 'POST',
    path: '/earn/products/update',
    summary: 'Change a product (a rate change applies to new investments only); audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: earnProductUpdateBody,
    data: earnProductAdmin,
  },
  fundEarnReserve: {
    method: 'POST',
    path: '/earn/reserve',
    summary:
      "Fund a product's yield reserve in a book: a ledger transfer from the house (demo: from demo issuance); audited",
    roles: EARN_STAFF,
    body: earnFundBody,
    data: earnProductAdmin,
  },
  earnProofQueue: earnProofReviewCalls.list,
  getEarnProof: earnProofReviewCalls.get,
  claimEarnProof: earnProofReviewCalls.claim,
  releaseEarnProof: earnProofReviewCalls.release,
  approveEarnProof: earnProofReviewCalls.approve,
  rejectEarnProof: earnProofReviewCalls.reject,
} as const satisfies Record<string, AdminCallDefinition>;

export type EarnProductAdmin = z.infer<typeof earnProductAdmin>;
export type EarnProofListItem = z.infer<typeof earnProofListItem>;
export type EarnProofItem = z.infer<typeof earnProofItem>;
