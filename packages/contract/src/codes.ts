/**
 * The body codes of the `{code, msg, data}` envelope (spec §8). 200 is success and 401 is an
 * expired session; 100xx are refusals, 200xx are successes with a message of their own. The codes
 * 10026-10045 are ours: the spec has no code for invalid input, rate limits, missing or forbidden
 * objects, internal faults, a price that moved before an order was confirmed, a demo reset
 * refused while positions are open, an upload over its purpose's size limit, and the staff review
 * queue's claims and four eyes, the limits of deposits and withdrawals, and an earn product sold out or open to verified customers only;
 * 10048-10049 a setting's change that waits for a second admin; 10050 an unknown invite code;
 * 10060-10068 charity NFTs (bids, sales, sending, payouts); 10070 an invalid pending entry order;
 * 10071 the price alerts' limit.
 */
export const Code = {
  OK: 200,
  SESSION_EXPIRED: 401,
  ENTER_USERNAME_OR_EMAIL: 10001,
  EMAIL_WRONG: 10002,
  USERNAME_INPUT_ERROR: 10003,
  WRONG_PASSWORD: 10004,
  ABNORMAL_USER_STATUS: 10005,
  USERNAME_EXISTS: 10006,
  EMAIL_EXISTS: 10007,
  WRONG_USER_STATUS: 10008,
  NO_MATCHING_USER: 10009,
  SMART_PRODUCT_INCORRECT: 10010,
  INSUFFICIENT_BALANCE: 10011,
  NO_MATCHING_DAYS: 10012,
  WRONG_INVESTMENT_AMOUNT: 10013,
  OPTIONS_PRODUCT_INCORRECT: 10014,
  NOT_AVAILABLE_FOR_TRADING: 10015,
  INCORRECT_PURCHASE_AMOUNT: 10016,
  NO_MATCHING_PERIOD: 10017,
  SYSTEM_PARAMETER_FAILED: 10018,
  WRONG_AUTHENTICATION_STATUS: 10019,
  WRONG_COLLECTION_STATUS: 10020,
  RECEIVING_ADDRESS_MISSING: 10021,
  USER_NOT_AUTHENTICATED: 10022,
  LOAN_PERIOD_WRONG: 10023,
  ALREADY_PURCHASED: 10024,
  SELECT_WITHDRAWAL_METHOD: 10025,
  INVALID_INPUT: 10026,
  TOO_MANY_REQUESTS: 10027,
  NOT_FOUND: 10028,
  FORBIDDEN: 10029,
  UNKNOWN_ERROR: 10030,
  SERVICE_UNAVAILABLE: 10031,
  PRICE_CHANGED: 10032,
  POSITIONS_OPEN: 10033,
  FILE_TOO_LARGE: 10034,
  /** A staff review: another staff member holds the item's claim (data: who and until when). */
  REVIEW_CLAIMED: 10035,
  /** A staff review: deciding needs a live claim of the decider. */
  REVIEW_CLAIM_REQUIRED: 10036,
  /** A staff review above its four-eyes threshold: the second approver must be another account. */
  REVIEW_SECOND_APPROVER: 10037,
  /** An amount below the network's minimum (data: asset and minimum). */
  BELOW_MINIMUM: 10038,
  /** A withdrawal above the network's maximum per withdrawal (data: asset and maximum). */
  ABOVE_MAXIMUM: 10039,
  /** A withdrawal beyond today's limit (data: asset, limit and what is left). */
  DAILY_LIMIT_REACHED: 10040,
  /** A withdrawal address still in its waiting time (data: when it can be used). */
  ADDRESS_LOCKED: 10041,
  /** A deposit's transaction hash already credited or declared. */
  TRANSACTION_ALREADY_USED: 10042,
  /** The demo account is disabled for live-only services (spec §5): deposits, withdrawals, loans, smart plans. */
  LIVE_BOOK_ONLY: 10043,
  /** An earn product with no room left, or whose reserve cannot cover a new investment's interest (data: reason). */
  SOLD_OUT: 10044,
  /** A VIP product open to verified customers only. */
  VIP_NOT_ELIGIBLE: 10045,
  /** A deposit proof the watched chain does not confirm (data: the verdict): staff cannot approve it. */
  CHAIN_DOES_NOT_CONFIRM: 10047,
  /** A change of the same setting already waits for a second admin's approval (four-eyes thresholds). */
  CHANGE_AWAITS_SECOND_ADMIN: 10048,
  /** The admin who proposed a change cannot approve it: another admin must. */
  OWN_PROPOSAL: 10049,
  /** An invite code named at registration that no customer has: nothing is consumed or created. */
  INVITE_CODE_UNKNOWN: 10050,
  /** A bid below the minimum next bid (the current one plus the minimum increment, or the start price): data `{minBid}`. */
  NFT_BID_TOO_LOW: 10060,
  /** The NFT's sale is not open: not started, ended, sold or unsold (data `{state}`). */
  NFT_SALE_CLOSED: 10061,
  /** The customer's own bid already leads: outbidding oneself is refused. */
  NFT_ALREADY_LEADING: 10062,
  /** The NFT is not the customer's to send, or is being sent already. */
  NFT_NOT_SENDABLE: 10063,
  /** The address is still in its lock after being added or after a security change (data `{usableFrom}`). */
  NFT_ADDRESS_LOCKED: 10064,
  /** The chain did not take an NFT's transfer: the NFT stays the customer's (try again later). */
  NFT_SEND_FAILED: 10065,
  /** A drop asked to change state that it is not in (mint a drop that is not a draft). */
  NFT_DROP_STATE: 10066,
  /** A charity payout over what the charity account holds. */
  NFT_PAYOUT_OVER_BALANCE: 10067,
  /** A charity payout in an asset the hot wallet cannot send on the chain (data `{sendable}`). */
  NFT_PAYOUT_ASSET: 10068,
  /** A pending entry order's level on the wrong side of the market (it would fill at once), or an order not open to change. */
  PENDING_ORDER_INVALID: 10070,
  /** A customer's 100 active price alerts: another is refused until one fires or is cancelled (data `{limit}`). */
  PRICE_ALERT_LIMIT: 10071,
  VERIFICATION_CODE_WRONG: 10091,
  SUBMITTED_FOR_REVIEW: 20001,
  RECHARGE_SUBMITTED: 20002,
  WITHDRAWAL_SUBMITTED: 20003,
  PURCHASE_SUCCESSFUL: 20004,
  OPERATION_SUCCESSFUL: 20005,
} as const;

export type CodeName = keyof typeof Code;
export type CodeValue = (typeof Code)[CodeName];

export const ALL_CODES: readonly CodeValue[] = Object.values(Code);

/** Success codes: 200 and the 200xx family. */
export function isSuccessCode(code: number): boolean {
  return code === Code.OK || (code >= 20001 && code <= 20005);
}

/** The HTTP status that accompanies a body code. Refusals stay 200 on the wire, as the spec's clients expect, except transport-level ones. */
export function httpStatusFor(code: CodeValue): number {
  switch (code) {
    case Code.SESSION_EXPIRED:
      return 401;
    case Code.INVALID_INPUT:
      return 400;
    case Code.TOO_MANY_REQUESTS:
      return 429;
    case Code.NOT_FOUND:
      return 404;
    case Code.FORBIDDEN:
      return 403;
    case Code.UNKNOWN_ERROR:
      return 500;
    case Code.SERVICE_UNAVAILABLE:
      return 503;
    case Code.FILE_TOO_LARGE:
      return 413;
    default:
      return 200;
  }
}
