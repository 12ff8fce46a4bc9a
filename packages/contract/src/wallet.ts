import { z } from 'zod/mini';
import { decimalString } from './ledger.ts';
import { AMOUNT_INPUT } from './money.ts';
import { quoteFields, quoteId } from './quotes.ts';
import { reviewCalls } from './review.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadId } from './uploads.ts';

/**
 * Money in and out of the live book (spec §1, §3 Deposit and Withdrawal, §5, §9; DESIGN §3 Chain).
 * Everything a customer is told about timing and fees comes from the network's row, which staff
 * keep in the back office; every figure of a withdrawal is quoted before it is committed and is
 * exactly what is posted.
 */

export const NETWORK_ASSETS = ['USDT', 'ETH', 'BTC'] as const;
export type NetworkAsset = (typeof NETWORK_ASSETS)[number];
export const ADDRESS_FORMATS = ['evm', 'bech32'] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

/** A network's id: the asset and the chain, e.g. `USDT-EVM`. */
export const networkId = z.string().check(z.regex(/^[A-Z0-9]{2,10}-[A-Z0-9]{2,10}$/));

/** An amount the customer types: a positive decimal (the asset's scale is checked by the server). */
export const amountInput = z.string().check(z.trim(), z.regex(AMOUNT_INPUT));

/** A fee rate as a ratio (e.g. "0.005" is 0.5 %): at most 6 decimals, below 1. */
export const feeRate = z.string().check(z.regex(/^0(\.\d{1,6})?$/));

/** One way of moving an asset in or out: its limits, depths and fee, as staff set them. */
export const network = z.object({
  id: networkId,
  asset: z.enum(NETWORK_ASSETS),
  /** What the customer reads, e.g. "Ethereum (ERC-20)". */
  name: z.string(),
  addressFormat: z.enum(ADDRESS_FORMATS),
  /** The platform follows the chain and credits deposits by itself (else: by proof only). */
  watched: z.boolean(),
  depositMinimum: decimalString,
  /** Confirmations before a deposit is credited. */
  creditConfirmations: z.int(),
  /** Confirmations before a credited deposit can be withdrawn. */
  unlockConfirmations: z.int(),
  /** The chain's seconds between blocks, which the waiting times are computed from. */
  blockSeconds: z.int(),
  withdrawalFeeRate: feeRate,
  withdrawalMinimum: decimalString,
  withdrawalMaximum: decimalString,
  /** Minutes a withdrawal takes to arrive once approved (sending plus confirmations). */
  arrivalMinutes: z.int(),
  enabled: z.boolean(),
  /**
   * The platform can send on this network now: it follows the chain and holds a signer of the hot
   * wallet (BTC has no node here; a platform without a signer sends nothing). Else deposits only.
   */
  withdrawable: z.boolean(),
});
export type Network = z.infer<typeof network>;

/**
 * The withdrawal fee of an amount in minor units: amount × rate, rounded up to the asset's smallest
 * unit (the rate a ratio string, "0.005" is 0.5 %). The server posts it; the screens preview it.
 */
export function withdrawalFee(amount: bigint, rate: string): bigint {
  const [whole = '0', fraction = ''] = rate.split('.');
  const numerator = BigInt(whole + fraction);
  const denominator = 10n ** BigInt(fraction.length);
  return (amount * numerator + denominator - 1n) / denominator;
}

export const networkQuery = z.object({ network: networkId });

/** The customer's deposit address on a network (derived from the platform's public key). */
export const depositAddress = z.object({
  network: networkId,
  address: z.string(),
});

export const DEPOSIT_STATES = [
  /** Seen on chain, below the network's confirmations. */
  'confirming',
  /** Credited; not yet withdrawable (below the unlock depth). */
  'credited',
  /** Credited and withdrawable. */
  'available',
  /** Seen on chain below the network's minimum: not credited. */
  'below_minimum',
  /** Its block was replaced before the unlock depth: the credit was reversed. */
  'reversed',
  /** Declared with a proof, waiting for staff. */
  'pending_review',
  'rejected',
] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

export const deposit = z.object({
  id: z.int(),
  network: networkId,
  asset: z.enum(NETWORK_ASSETS),
  amount: decimalString,
  /** `chain`: seen by the platform; `proof`: declared by the customer with a payment proof. */
  source: z.enum(['chain', 'proof']),
  state: z.enum(DEPOSIT_STATES),
  txHash: z.string(),
  address: z.string(),
  confirmations: z.int(),
  creditConfirmations: z.int(),
  unlockConfirmations: z.int(),
  /**
   * Seconds until the next step (credit, then unlock): the confirmations left times the network's
   * block time; null when none.
   */
  etaSeconds: z.nullable(z.int()),
  /** The network's minimum, for a deposit below it. */
  minimum: decimalString,
  /** Staff's reason for a rejection, or the platform's as a word (`credited_on_chain`, `reorg`) the apps translate. */
  reason: z.nullable(z.string()),
  createdAt: z.string(),
  creditedAt: z.nullable(z.string()),
});
export type Deposit = z.infer<typeof deposit>;

/** Spec `recharge`: a deposit declared with a proof (and the BTC path, which has no node here). */
export const rechargeBody = z.object({
  network: networkId,
  amount: amountInput,
  txHash: z.string().check(z.trim(), z.regex(/^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64})$/)),
  /** The last 6 characters of the sending address, which staff match against the chain. */
  lastSix: z.string().check(z.trim(), z.regex(/^[0-9A-Za-z]{6}$/)),
  proof: uploadId,
  /** The platform's address the money was sent to (the customer's deposit address). */
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
});
export type RechargeBody = z.infer<typeof rechargeBody>;

/** A withdrawal address of the customer's book of addresses. */
export const withdrawalAddress = z.object({
  id: z.int(),
  network: networkId,
  address: z.string(),
  label: z.string(),
  /** When it can first be used (24 hours after it was added, or after a security change). */
  usableFrom: z.string(),
  createdAt: z.string(),
  /**
   * Proved to be the customer's own: added from the self-custody wallet with a signature
   * (EIP-191) of `ownershipMessage` by the address's key.
   */
  owned: z.boolean(),
});
export type WithdrawalAddress = z.infer<typeof withdrawalAddress>;

export const addWithdrawalAddressBody = z.object({
  network: networkId,
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  label: z.string().check(z.trim(), z.maxLength(40)),
  /**
   * From the self-custody wallet (EVM networks only): an EIP-191 personal-message signature of
   * `ownershipMessage(address, customerId)` by the address's key. A signature by another key is
   * 10026 `[{path: 'signature', issue: 'not_owner'}]`.
   */
  signature: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/))),
});

/**
 * The message a self-custody wallet signs (EIP-191 personal message) to prove it controls an
 * address it adds to the customer's withdrawal addresses. The same text is built in the browser
 * (which signs it) and on the server (which recovers the signer); the address is lowercase.
 */
export function ownershipMessage(address: string, customerId: number): string {
  return [
    'SWX withdrawal address',
    'I control this address and add it to my SWX withdrawal addresses.',
    `Address: ${address.toLowerCase()}`,
    `Customer: ${customerId}`,
  ].join('\n');
}

/** A self-custody wallet's public address on the platform's chain, to read its balance. */
export const chainBalanceQuery = z.object({
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
});

/** What the platform's chain holds at an address (read-only): native ETH and the USDT token. */
export const chainBalance = z.object({
  /** False when the platform runs without a chain (CHAIN=off): nothing to read. */
  available: z.boolean(),
  /** The chain's head block the balances were read at; null when unavailable. */
  block: z.nullable(z.string()),
  balances: z.array(z.object({ asset: z.enum(['ETH', 'USDT']), amount: decimalString })),
});
export type ChainBalance = z.infer<typeof chainBalance>;

/** The hours a new address, or every address after a password change or two-step removal, is locked. */
export const ADDRESS_LOCK_HOURS = 24;

export const withdrawalQuoteBody = z.object({
  /** Spec 10025 when missing. */
  network: z.optional(networkId),
  /** An address of the book; spec 10021 when missing. */
  addressId: z.optional(z.int().check(z.minimum(1))),
  amount: amountInput,
});

/** How the customer confirms a withdrawal: the authenticator's code, or a code mailed now. */
export const CONFIRMATION_METHODS = ['totp', 'mail'] as const;

export const withdrawalQuote = z.object({
  ...quoteFields,
  network: networkId,
  asset: z.enum(NETWORK_ASSETS),
  address: z.string(),
  addressId: z.int(),
  /** What leaves the balance. */
  amount: decimalString,
  fee: decimalString,
  feeRate,
  /** What arrives at the address: amount − fee. */
  receive: decimalString,
  arrivalMinutes: z.int(),
  confirmation: z.enum(CONFIRMATION_METHODS),
});
export type WithdrawalQuote = z.infer<typeof withdrawalQuote>;

/** A withdrawal code is asked for one pending quote: the mail names its figures. */
export const withdrawalCodeBody = z.object({ quoteId });

export const withdrawalBody = z.object({
  quoteId,
  /** The customer's request id (one withdrawal per id, a retry answers the first). */
  requestId: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/)),
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/)),
});

export const WITHDRAWAL_STATES = [
  'pending_review',
  /** Approved by staff; being signed and sent. */
  'approved',
  /** On chain, waiting for confirmations. */
  'sent',
  'completed',
  'rejected',
  /** Sending failed: the hold was released. */
  'failed',
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export const withdrawal = z.object({
  id: z.int(),
  network: networkId,
  asset: z.enum(NETWORK_ASSETS),
  address: z.string(),
  amount: decimalString,
  fee: decimalString,
  receive: decimalString,
  state: z.enum(WITHDRAWAL_STATES),
  txHash: z.nullable(z.string()),
  confirmations: z.int(),
  reason: z.nullable(z.string()),
  createdAt: z.string(),
  completedAt: z.nullable(z.string()),
});
export type Withdrawal = z.infer<typeof withdrawal>;

/** A customer's withdrawal limit per asset and UTC day, and what is used of it. */
export const withdrawalLimit = z.object({
  asset: z.enum(NETWORK_ASSETS),
  limit: decimalString,
  used: decimalString,
  /** The limit is the higher one of a verified identity. */
  verified: z.boolean(),
});

export const sentCodeAnswer = z.object({ expiresInSeconds: z.int(), resendInSeconds: z.int() });

/** Staff: a network's editable fields (the id and asset stay). */
export const networkUpdateBody = /* @__PURE__ */ z.object({
  id: networkId,
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(60)),
  depositMinimum: amountInput,
  creditConfirmations: z.int().check(z.minimum(1), z.maximum(1000)),
  unlockConfirmations: z.int().check(z.minimum(1), z.maximum(10_000)),
  blockSeconds: z.int().check(z.minimum(1), z.maximum(3600)),
  withdrawalFeeRate: feeRate,
  withdrawalMinimum: amountInput,
  withdrawalMaximum: amountInput,
  arrivalMinutes: z.int().check(z.minimum(1), z.maximum(10_080)),
  enabled: z.boolean(),
});

/** Staff: the hot wallet beside what customers hold, per asset of the chain. */
export const treasuryRow = /* @__PURE__ */ z.object({
  asset: z.enum(NETWORK_ASSETS),
  /** The hot wallet's balance on chain; null when the platform cannot read one (no node). */
  hotWallet: z.nullable(decimalString),
  hotWalletAddress: z.nullable(z.string()),
  /**
   * What sits on chain at customers' deposit addresses (never swept to the hot wallet); null when
   * the platform cannot read it (no node for the asset).
   */
  depositAddresses: z.nullable(decimalString),
  /** How many deposit addresses of the asset's chain were read. */
  depositAddressCount: z.int(),
  /** What customers hold in the live book (balances, held included). */
  liabilities: decimalString,
  /** Approved withdrawals and the hot wallet's sends for other products (charity payouts) not yet confirmed on chain. */
  outgoing: decimalString,
});

/**
 * What the chain the platform watches says of a deposit proof's transaction: `matches` (mined, and
 * it moved at least the declared amount of the asset to the customer's deposit address), or why
 * not: `not_found` (no such mined transaction), `failed` (it reverted), `no_transfer` (it moved
 * none of the asset), `other_address` (only to other addresses), `short` (less than declared), or
 * `unavailable` (the node did not answer). Only `matches` can be approved.
 */
export const DEPOSIT_CHAIN_VERDICTS = [
  'matches',
  'not_found',
  'failed',
  'no_transfer',
  'other_address',
  'short',
  'unavailable',
] as const;
export type DepositChainVerdict = (typeof DEPOSIT_CHAIN_VERDICTS)[number];

/** A deposit's reason written by the platform, not by staff: the watcher credited the same transaction. */
export const PROOF_CLOSED_BY_CHAIN = 'credited_on_chain';

export const depositChainCheck = /* @__PURE__ */ z.object({
  verdict: z.enum(DEPOSIT_CHAIN_VERDICTS),
  /** What the transaction moved of the asset to the customer's deposit address; null when not found or failed. */
  amount: z.nullable(decimalString),
  /** Blocks on top of the transaction's, its own included (0 when not found). */
  confirmations: z.int(),
  /** The network's depths: credited (held) at the first, withdrawable at the second. */
  creditConfirmations: z.int(),
  unlockConfirmations: z.int(),
  blockNumber: z.nullable(z.string()),
});
export type DepositChainCheck = z.infer<typeof depositChainCheck>;

/** Staff: a deposit proof in the queue. */
export const depositReviewListItem = /* @__PURE__ */ z.object({
  id: z.int(),
  userId: z.int(),
  customer: z.string(),
  network: networkId,
  asset: z.enum(NETWORK_ASSETS),
  amount: decimalString,
  txHash: z.string(),
  createdAt: z.string(),
  /** Checked against the chain the platform watches (else: checked by hand, four eyes above the threshold). */
  onChain: z.boolean(),
});
export const depositReviewItem = /* @__PURE__ */ z.extend(depositReviewListItem, {
  lastSix: z.string(),
  address: z.string(),
  /** The customer's own deposit address on that network (the proof should name it). */
  customerAddress: z.nullable(z.string()),
  proof: z.string(),
  state: z.enum(DEPOSIT_STATES),
  reason: z.nullable(z.string()),
  /** What the watched chain says of the transaction; null for a network without a node here. */
  chain: z.nullable(depositChainCheck),
});

/** Staff: a withdrawal in the queue. */
export const withdrawalReviewListItem = /* @__PURE__ */ z.object({
  id: z.int(),
  userId: z.int(),
  customer: z.string(),
  network: networkId,
  asset: z.enum(NETWORK_ASSETS),
  amount: decimalString,
  receive: decimalString,
  createdAt: z.string(),
});
export const withdrawalReviewItem = /* @__PURE__ */ z.extend(withdrawalReviewListItem, {
  address: z.string(),
  fee: decimalString,
  /** When the address was added to the customer's book. */
  addressAddedAt: z.string(),
  kycVerified: z.boolean(),
  state: z.enum(WITHDRAWAL_STATES),
  txHash: z.nullable(z.string()),
  reason: z.nullable(z.string()),
});

/** Who checks money in and out: finance, and admin. */
const MONEY_STAFF = STAFF_DUTIES.money.roles;

/** The deposit proof queue (modules/review): finance and admin read and decide. */
export const depositReviewCalls = /* @__PURE__ */ reviewCalls({
  path: '/deposits',
  noun: 'deposit proof',
  listItem: depositReviewListItem,
  item: depositReviewItem,
  readers: MONEY_STAFF,
  deciders: MONEY_STAFF,
});

/** The withdrawal queue: finance and admin decide, two of them above the four-eyes threshold. */
export const withdrawalReviewCalls = /* @__PURE__ */ reviewCalls({
  path: '/withdrawals',
  noun: 'withdrawal',
  listItem: withdrawalReviewListItem,
  item: withdrawalReviewItem,
  readers: MONEY_STAFF,
  deciders: MONEY_STAFF,
});

export const walletAdminCalls = {
  listNetworksAdmin: {
    method: 'GET',
    path: '/wallet/networks',
    summary: 'Every network with its limits, depths, fee and switch',
    roles: MONEY_STAFF,
    data: z.array(network),
  },
  updateNetwork: {
    method: 'POST',
    path: '/wallet/networks',
    summary: 'Change a network (limits, depths, fee rate, arrival time, enabled); admin only, audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: networkUpdateBody,
    data: network,
  },
  treasury: {
    method: 'GET',
    path: '/wallet/treasury',
    summary:
      "The hot wallet's balance on chain beside customers' live balances and outgoing withdrawals, per asset",
    roles: MONEY_STAFF,
    data: z.array(treasuryRow),
  },
  depositQueue: depositReviewCalls.list,
  getDeposit: depositReviewCalls.get,
  claimDeposit: depositReviewCalls.claim,
  releaseDeposit: depositReviewCalls.release,
  approveDeposit: depositReviewCalls.approve,
  rejectDeposit: depositReviewCalls.reject,
  withdrawalQueue: withdrawalReviewCalls.list,
  getWithdrawal: withdrawalReviewCalls.get,
  claimWithdrawal: withdrawalReviewCalls.claim,
  releaseWithdrawal: withdrawalReviewCalls.release,
  approveWithdrawal: withdrawalReviewCalls.approve,
  rejectWithdrawal: withdrawalReviewCalls.reject,
} as const satisfies Record<string, AdminCallDefinition>;

export type DepositReviewListItem = z.infer<typeof depositReviewListItem>;
export type DepositReviewItem = z.infer<typeof depositReviewItem>;
export type WithdrawalReviewListItem = z.infer<typeof withdrawalReviewListItem>;
export type WithdrawalReviewItem = z.infer<typeof withdrawalReviewItem>;
export type TreasuryRow = z.infer<typeof treasuryRow>;
