import { z } from 'zod/mini';
import { wireId } from './ids.ts';
import { KYC_STATES } from './kyc.ts';
import { decimalString } from './ledger.ts';
import { LOAN_AGREEMENT_PATH, LOAN_STATES } from './loanFacts.ts';
import { loanLimitAdminCalls, loanLimitRule, loanShare } from './loanLimit.ts';
import { TX_HASH } from './money.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { reviewCalls } from './review.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadId } from './uploads.ts';
import { amountInput } from './wallet.ts';

/**
 * Loans without collateral (spec §1, §2 `/loan`, §3 Loan and Repayment, §4 loan states, §5, §6,
 * §7 `user/loan`, `listLoanRecord`, `completeLoan`, §8 10022 / 10023 / 20001, §9 interest-free
 * days; DESIGN §2 rules 2 and 3). Live book only (the demo book answers 10043).
 *
 * One loan is one amount paid out once and repaid at the due date (a bullet loan: the spec's
 * "repayment at maturity covers interest and principal"); the customer may repay earlier, in part
 * or in full, without a fee. Interest accrues daily at the product's daily rate on the principal
 * still owed, from the day after the interest-free days until the due date; after the due date no
 * interest accrues, only the late-payment cost the agreement states (a daily rate on the principal
 * still owed, capped at a share of the amount borrowed). Rates are ratios as decimal strings with
 * at most 6 decimals ("0.0005" is 0.05 % a day).
 *
 * Every figure of the disclosure comes from the server's one figures module, which also makes the
 * postings: what the quote shows is what the loan applies.
 */

export * from './loanLimit.ts';

export const LOAN_ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
const loanAsset = z.enum(LOAN_ASSETS);

/** A ratio with at most 6 decimals, below 1 (e.g. "0.0005"). */
export const loanRate = z.string().check(z.regex(/^0(\.\d{1,6})?$/));

/** The days of the right of withdrawal (EU consumer-credit directive): repay within them without interest-free loss or fee. */
export const LOAN_WITHDRAWAL_DAYS = 14;
/** The longest term a product may offer, in days. */
export const LOAN_MAX_TERM_DAYS = 365;

export const loanProduct = z.object({
  id: z.int(),
  name: z.string(),
  asset: loanAsset,
  minAmount: decimalString,
  maxAmount: decimalString,
  /** The terms offered, in days (a loan names one of them; another is 10023). */
  terms: z.array(z.int()),
  dailyRate: loanRate,
  /** Days after the payout without interest (spec §9 `num`). */
  interestFreeDays: z.int(),
  /** Late-payment cost: this daily rate on the principal still owed, from the day after the due date. */
  lateDailyRate: loanRate,
  /** The late-payment cost never exceeds this share of the amount borrowed. */
  lateCapRate: loanRate,
  enabled: z.boolean(),
  /** The lending pool can pay out at least the minimum now. */
  available: z.boolean(),
});
export type LoanProduct = z.infer<typeof loanProduct>;

/** Keys of what raises a customer's limit: identity verified, a loan repaid by its due date, no loan overdue. */
export const LOAN_LIMIT_STEPS = ['kycVerified', 'loanRepaidOnTime', 'noLoanOverdue'] as const;

export const loanLimit = z.object({
  kycState: z.enum(KYC_STATES),
  score: z.int(),
  maxScore: z.int(),
  /** The share of each product's maximum open to this customer now ("0" until identity is verified). */
  share: loanShare,
  /** The rule that gives it, and the customer's facts it reads. */
  rule: loanLimitRule,
  /** Loans repaid on time that ran at least the rule's days (each a step), and loans that went overdue. */
  counted: z.int(),
  overdue: z.int(),
  /** The next step: this share after this many more loans repaid on time; null at the highest. */
  next: z.nullable(z.object({ share: loanShare, loans: z.int() })),
  /** The credit score's steps (kyc's rules): each with its points and whether it is done. */
  steps: z.array(z.object({ key: z.enum(LOAN_LIMIT_STEPS), points: z.int(), done: z.boolean() })),
  /** A loan in progress (pending, repaying or overdue): one at a time. */
  openLoanId: z.nullable(z.int()),
});
export type LoanLimit = z.infer<typeof loanLimit>;

export const loanProductsData = z.object({
  limit: loanLimit,
  products: z.array(
    z.extend(loanProduct, {
      /** The most this customer may borrow of it now (0: none; below the minimum: none either). */
      myLimit: decimalString,
      /**
       * The APR of each term (percent, one decimal, as the sheet states it), at the product's
       * maximum amount: the sheet's figure for that amount and term.
       */
      aprs: z.array(z.object({ termDays: z.int(), apr: z.string() })),
    }),
  ),
});
export type LoanProductsData = z.infer<typeof loanProductsData>;

export const loanQuoteBody = z.object({
  productId: z.int().check(z.minimum(1)),
  amount: amountInput,
  termDays: z.int().check(z.minimum(1), z.maximum(LOAN_MAX_TERM_DAYS)),
});

/**
 * The standard information of the disclosure (the EU's consumer-credit information sheet): every
 * figure before signing. Days count from the payout (staff approval); `dueDate` and the other
 * dates are those of a payout today, and move with the payout day.
 */
export const loanFigures = z.object({
  productId: z.int(),
  productName: z.string(),
  asset: loanAsset,
  amount: decimalString,
  termDays: z.int(),
  dailyRate: loanRate,
  interestFreeDays: z.int(),
  /** Days on which interest accrues: term − interest-free days (never below 0). */
  interestDays: z.int(),
  /** Interest when repaid at the due date (less when repaid earlier). */
  totalInterest: decimalString,
  /** Amount + total interest: the one repayment at the due date. */
  totalPayable: decimalString,
  repaymentAmount: decimalString,
  /** For a payout today: the first day with interest, and the due date (UTC days). */
  interestFrom: z.string(),
  dueDate: z.string(),
  /** Annual percentage rate of charge in percent with one decimal (directive 2023/2225 annex III, 2008/48 annex I). */
  apr: z.string().check(z.regex(/^\d+\.\d$/)),
  lateDailyRate: loanRate,
  /** The most the late-payment cost can reach: lateCapRate × amount. */
  lateCostCap: decimalString,
  /** Early repayment, in part or in full, costs no fee: the interest of the days not yet run is not charged. */
  earlyRepaymentFee: decimalString,
  /** Days after the payout within which the agreement may be withdrawn (repaying what was paid out and any interest accrued). */
  withdrawalDays: z.int(),
});
export type LoanFigures = z.infer<typeof loanFigures>;

export const loanQuote = z.object({
  ...quoteFields,
  ...loanFigures.shape,
  /** The agreement the customer signs: its clauses, generated from these figures (English). */
  agreement: z.array(z.string()),
  /** The limit this customer had when quoted. */
  myLimit: decimalString,
});
export type LoanQuote = z.infer<typeof loanQuote>;

const requestId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/));

/**
 * Apply at a quote: the signature is an upload of purpose `loan_signature` (a PNG drawn on the
 * screen); without it, or without accepting the agreement, nothing is submitted (10026).
 */
export const loanApplyBody = z.object({
  quoteId,
  requestId,
  signature: uploadId,
  acceptAgreement: z.literal(true),
});

export const loanIdParams = z.object({ id: wireId() });
export const loanIdBody = z.object({ loanId: z.int().check(z.minimum(1)) });

export const loanAmounts = z.object({
  principal: decimalString,
  interest: decimalString,
  lateCost: decimalString,
  total: decimalString,
});

export const loanRecord = z.object({
  id: z.int(),
  productId: z.int(),
  productName: z.string(),
  asset: loanAsset,
  amount: decimalString,
  termDays: z.int(),
  dailyRate: loanRate,
  interestFreeDays: z.int(),
  lateDailyRate: loanRate,
  lateCostCap: decimalString,
  totalInterest: decimalString,
  totalPayable: decimalString,
  apr: z.string(),
  state: z.enum(LOAN_STATES),
  appliedAt: z.string(),
  /** Set at the payout. */
  disbursedAt: z.nullable(z.string()),
  interestFrom: z.nullable(z.string()),
  dueDate: z.nullable(z.string()),
  /** The last day of the right of withdrawal; null before the payout. */
  withdrawableUntil: z.nullable(z.string()),
  closedAt: z.nullable(z.string()),
  /** What is owed now (interest of days settled so far) and what was paid. */
  outstanding: loanAmounts,
  paid: loanAmounts,
  /** Staff's reason when rejected. */
  reason: z.nullable(z.string()),
  /** The signed agreement (PDF) can be downloaded. */
  hasAgreement: z.boolean(),
});
export type LoanRecord = z.infer<typeof loanRecord>;

export const LOAN_REPAYMENT_STATES = ['pending', 'approved', 'rejected'] as const;

export const loanRepayment = z.object({
  id: z.int(),
  method: z.enum(['balance', 'proof']),
  /** Declared (proof) or paid (balance). */
  amount: decimalString,
  state: z.enum(LOAN_REPAYMENT_STATES),
  /** How it was allocated: late cost, then interest, then principal (null while pending). */
  lateCost: z.nullable(decimalString),
  interest: z.nullable(decimalString),
  principal: z.nullable(decimalString),
  txHash: z.nullable(z.string()),
  address: z.nullable(z.string()),
  /** The proof image (an upload its owner reads at `uploadFileUrl`). */
  proof: z.nullable(uploadId),
  reason: z.nullable(z.string()),
  createdAt: z.string(),
});
export type LoanRepayment = z.infer<typeof loanRepayment>;

export const loanDetail = z.extend(loanRecord, {
  /** The one instalment: principal and interest at the due date, as the agreement states. */
  schedule: z.array(
    z.object({
      dueDate: z.string(),
      principal: decimalString,
      interest: decimalString,
      total: decimalString,
    }),
  ),
  /** What each settled day added: interest (up to the due date) or late cost (after it). */
  accruals: z.array(z.object({ day: z.string(), interest: decimalString, lateCost: decimalString })),
  repayments: z.array(loanRepayment),
});
export type LoanDetail = z.infer<typeof loanDetail>;

export const listLoanQuery = z.object({ state: z.optional(z.enum(LOAN_STATES)) });

/** Where a repayment by transfer goes (set by staff per asset); empty when none is set. */
export const loanRepayAddress = z.object({ asset: loanAsset, network: z.string(), address: z.string() });

/**
 * Repaying today: what is owed now (interest of past days only: the interest of the days not yet
 * run is never charged) and what a payment of it is allocated to.
 */
export const loanPayoff = z.object({
  loanId: z.int(),
  asset: loanAsset,
  day: z.string(),
  principal: decimalString,
  interest: decimalString,
  lateCost: decimalString,
  /** Pay this today to owe nothing. */
  total: decimalString,
  /** What the due date would have cost more (the interest not charged by repaying today). */
  interestSaved: decimalString,
  /** Within the 14 days: repaying in full now is a withdrawal of the agreement. */
  withdrawable: z.boolean(),
  available: decimalString,
  repayAddresses: z.array(loanRepayAddress),
});
export type LoanPayoff = z.infer<typeof loanPayoff>;

/** Repay from the available balance: in full (the payoff of today) or a part, allocated late cost → interest → principal. */
export const loanRepayBody = z.object({
  loanId: z.int().check(z.minimum(1)),
  requestId,
  full: z.boolean(),
  /** A part's amount; ignored when full. */
  amount: z.optional(amountInput),
});

/** Repay by a transfer to a platform repayment address with a proof image (purpose `loan_repayment_proof`): 20001, staff review it. */
export const loanRepayProofBody = z.object({
  loanId: z.int().check(z.minimum(1)),
  amount: amountInput,
  proof: uploadId,
  txHash: z.string().check(z.trim(), z.regex(TX_HASH)),
  address: z.string().check(z.trim(), z.minLength(10), z.maxLength(120)),
});

/** The owner's signed agreement (loanFacts.ts LOAN_AGREEMENT_PATH). */
export const loanAgreementUrl = (id: number) =>
  `/swx/customer${LOAN_AGREEMENT_PATH.replace(':id', String(id))}`;
/** Staff's copy of the signed agreement (admin, finance, compliance), audited. */
export const LOAN_AGREEMENT_ADMIN_PATH = '/loans/:id/agreement.pdf';
export const loanAgreementAdminUrl = (id: number) =>
  `/swx/admin${LOAN_AGREEMENT_ADMIN_PATH.replace(':id', String(id))}`;

// Staff

const LOAN_STAFF = STAFF_DUTIES.money.roles;
/** Staff who may read applications and agreements: credit decisions need compliance's eyes too. */
export const LOAN_READERS = STAFF_DUTIES.readLoans.roles;

export const loanProductBody = /* @__PURE__ */ z.object({
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(60)),
  asset: loanAsset,
  minAmount: amountInput,
  maxAmount: amountInput,
  terms: z
    .array(z.int().check(z.minimum(1), z.maximum(LOAN_MAX_TERM_DAYS)))
    .check(z.minLength(1), z.maxLength(12)),
  dailyRate: loanRate,
  interestFreeDays: z.int().check(z.minimum(0), z.maximum(LOAN_MAX_TERM_DAYS)),
  lateDailyRate: loanRate,
  lateCapRate: loanRate,
  enabled: z.boolean(),
});
export type LoanProductBody = z.infer<typeof loanProductBody>;
export const loanProductUpdateBody = /* @__PURE__ */ z.extend(loanProductBody, {
  id: z.int().check(z.minimum(1)),
});

/** A lending pool (live book) per asset: free to lend, principal lent out, interest and late cost earned, and the interest still to accrue. */
export const loanPool = /* @__PURE__ */ z.object({
  asset: loanAsset,
  available: decimalString,
  lent: decimalString,
  income: decimalString,
  unearned: decimalString,
  openLoans: z.int(),
  overdueLoans: z.int(),
});
export type LoanPool = z.infer<typeof loanPool>;

export const loanProductAdmin = /* @__PURE__ */ z.object({ product: loanProduct, pool: loanPool });
export type LoanProductAdmin = z.infer<typeof loanProductAdmin>;

export const loanPoolFundBody = /* @__PURE__ */ z.object({
  asset: loanAsset,
  amount: amountInput,
  reason: z.string().check(z.trim(), z.minLength(3), z.maxLength(200)),
  /** One funding per id: a repeated click funds once. */
  requestId: z.optional(requestId),
});

export const loanApplicationListItem = /* @__PURE__ */ z.object({
  id: z.int(),
  userId: z.int(),
  customer: z.string(),
  productName: z.string(),
  asset: loanAsset,
  amount: decimalString,
  termDays: z.int(),
  totalPayable: decimalString,
  apr: z.string(),
  createdAt: z.string(),
});
export const loanApplicationItem = /* @__PURE__ */ z.extend(loanApplicationListItem, {
  loan: loanRecord,
  kycState: z.enum(KYC_STATES),
  creditScore: z.int(),
  /** The drawn signature (an upload staff of LOAN_READERS may view) and the agreement's SHA-256. */
  signature: z.string(),
  agreementSha256: z.nullable(z.string()),
  /** The pool's free balance now: an approval above it is refused. */
  poolAvailable: decimalString,
});
export type LoanApplicationListItem = z.infer<typeof loanApplicationListItem>;
export type LoanApplicationItem = z.infer<typeof loanApplicationItem>;

export const loanApplicationReviewCalls = /* @__PURE__ */ reviewCalls({
  path: '/loans/applications',
  noun: 'loan application',
  listItem: loanApplicationListItem,
  item: loanApplicationItem,
  readers: LOAN_READERS,
  deciders: LOAN_STAFF,
});

export const loanProofListItem = /* @__PURE__ */ z.object({
  id: z.int(),
  loanId: z.int(),
  userId: z.int(),
  customer: z.string(),
  asset: loanAsset,
  amount: decimalString,
  txHash: z.string(),
  address: z.string(),
  createdAt: z.string(),
});
export const loanProofItem = /* @__PURE__ */ z.extend(loanProofListItem, {
  proof: z.string(),
  state: z.enum(LOAN_REPAYMENT_STATES),
  reason: z.nullable(z.string()),
  /** What the loan owes now. */
  outstanding: loanAmounts,
});
export type LoanProofListItem = z.infer<typeof loanProofListItem>;
export type LoanProofItem = z.infer<typeof loanProofItem>;

export const loanProofReviewCalls = /* @__PURE__ */ reviewCalls({
  path: '/loans/repayment-proofs',
  noun: 'loan repayment proof',
  listItem: loanProofListItem,
  item: loanProofItem,
  readers: LOAN_STAFF,
  deciders: LOAN_STAFF,
});

export const overdueLoan = /* @__PURE__ */ z.object({
  loan: loanRecord,
  userId: z.int(),
  customer: z.string(),
  daysOverdue: z.int(),
});
export type OverdueLoan = z.infer<typeof overdueLoan>;

export const loanAdminCalls = {
  listLoanProducts: {
    method: 'GET',
    path: '/loans/products',
    summary: 'Every loan product with its lending pool (live book)',
    roles: LOAN_READERS,
    data: z.array(loanProductAdmin),
  },
  createLoanProduct: {
    method: 'POST',
    path: '/loans/products',
    summary: 'Create a loan product; audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: loanProductBody,
    data: loanProductAdmin,
  },
  updateLoanProduct: {
    method: 'POST',
    path: '/loans/products/update',
    summary:
      'Change a loan product (new applications only: a loan keeps the terms it was signed at); audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: loanProductUpdateBody,
    data: loanProductAdmin,
  },
  listLoanPools: {
    method: 'GET',
    path: '/loans/pools',
    summary: 'The lending pool of each asset: free, lent out, earned, still to accrue',
    roles: LOAN_READERS,
    data: z.array(loanPool),
  },
  fundLoanPool: {
    method: 'POST',
    path: '/loans/pools/fund',
    summary: "Fund an asset's lending pool (live book): a ledger transfer from the house; audited",
    roles: LOAN_STAFF,
    body: loanPoolFundBody,
    data: loanPool,
  },
  overdueLoans: {
    method: 'GET',
    path: '/loans/overdue',
    summary: 'Loans past their due date with money owed, longest overdue first',
    roles: LOAN_READERS,
    data: z.array(overdueLoan),
  },
  ...loanLimitAdminCalls,
  loanApplicationQueue: loanApplicationReviewCalls.list,
  getLoanApplication: loanApplicationReviewCalls.get,
  claimLoanApplication: loanApplicationReviewCalls.claim,
  releaseLoanApplication: loanApplicationReviewCalls.release,
  approveLoanApplication: loanApplicationReviewCalls.approve,
  rejectLoanApplication: loanApplicationReviewCalls.reject,
  loanProofQueue: loanProofReviewCalls.list,
  getLoanProof: loanProofReviewCalls.get,
  claimLoanProof: loanProofReviewCalls.claim,
  releaseLoanProof: loanProofReviewCalls.release,
  approveLoanProof: loanProofReviewCalls.approve,
  rejectLoanProof: loanProofReviewCalls.reject,
} as const satisfies Record<string, AdminCallDefinition>;
