import { z } from 'zod/mini';
import { inviteCode } from './identity.ts';
import { wireId } from './ids.ts';
import { decimalString } from './ledger.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';

/**
 * Invite friends (spec §2 `/profile/invite`; DESIGN §2 rules 3 and 4).
 *
 * Every customer has one invite code (8 characters of INVITE_CODE_ALPHABET) and a link
 * `/register?invite=<code>`. A friend who registers with it is linked for good, at registration
 * only (the register body's `inviteCode`); the link is never added or changed later.
 *
 * A friend **qualifies** once verified (KYC), after a live deposit credited and a first live
 * trade (a position opened or a swap made). From the qualifying day, for INVITE_REWARD_DAYS days
 * after the friend registered, each day's reward is a stated share (`shareBps`, 20 % by default,
 * staff-set) of the fees the ledger recorded as collected from the friend's **live** book that
 * day, per asset, floored to the asset's minor unit. The inviter may give part of the share back
 * to the friend (`rebateBps`: 0, 500 or 1000 basis points of the fee, taken out of the share: with
 * 2,000 and 500 the inviter gets 15 % of the fee and the friend 5 %). Demo activity never pays.
 * Rewards are paid from the `fees` account only.
 *
 * A day's reward is **on hold** for INVITE_HOLD_DAYS days (a reversed deposit or a fraud flag
 * cancels it), then **paid** by the settlement runner: one ledger entry per inviter and day
 * (kind `referral`), idempotent. A reward the rules refuse is **refused** with its reason
 * and paid to nobody.
 */

/** Days after the friend's registration during which the friend's fees earn the inviter a reward. */
export const INVITE_REWARD_DAYS = 365;
/** Days a day's reward is held before it is paid. */
export const INVITE_HOLD_DAYS = 7;
/** Invite codes: 8 characters from this alphabet (no 0/O, 1/I/L). */
export const INVITE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** The share of the reward the inviter may give back to the friend, in basis points of the fee. */
export const INVITE_REBATE_CHOICES = [0, 500, 1000] as const;

/** Basis points, 0 to 10,000. */
export const basisPoints = z.int().check(z.gte(0), z.lte(10_000));

/** A friend's state, as the inviter sees it. */
export const FRIEND_STATES = ['registered', 'verified', 'qualified', 'expired', 'frozen'] as const;
export const friendState = z.enum(FRIEND_STATES);

/** A reward day's state. */
export const REWARD_STATES = ['on_hold', 'paid', 'refused', 'cancelled'] as const;
export const rewardState = z.enum(REWARD_STATES);

/** Why a reward is refused or cancelled (each is a rule of the programme, stated on the page). */
export const REWARD_REASONS = [
  'same_identity',
  'same_device',
  'same_address',
  'daily_cap',
  'frozen',
  'deposit_reversed',
  'fraud_flag',
] as const;
export const rewardReason = z.enum(REWARD_REASONS);

/** The programme's terms, shown before anyone invites anybody. */
export const inviteTerms = z.object({
  /** The inviter's share of the fees collected from the friend's live book, in basis points. */
  shareBps: basisPoints,
  rewardDays: z.int(),
  holdDays: z.int(),
  /** Most an inviter is paid per day, per asset (USDT value; decimal string). */
  dailyCapUsdt: decimalString,
  rebateChoices: z.array(z.int()),
  enabled: z.boolean(),
});
export type InviteTerms = z.infer<typeof inviteTerms>;

/**
 * Per asset: what today's daily run accrued (the fees of the last day closed, yesterday UTC; the day
 * in progress is never shown, so no friend's activity can be timed), on hold, paid.
 */
export const rewardTotals = z.object({
  asset: z.string(),
  today: decimalString,
  onHold: decimalString,
  paid: decimalString,
});

/** My invite page: terms, my code and link, who invited me, my totals. */
export const myInvite = z.object({
  terms: inviteTerms,
  code: inviteCode,
  /** Path of the invite link on this site (`/register?invite=CODE`); the page prefixes the origin. */
  linkPath: z.string(),
  /** The part of the reward I give back to my friends, in basis points of the fee. */
  rebateBps: z.int(),
  /** Who invited me (masked), or null. */
  invitedBy: z.nullable(z.string()),
  /**
   * True while staff hold at least one of my links as inviter frozen: a link is one friend's, and
   * nothing accrues from that friend while it is frozen (my other friends' rewards go on). The link
   * to whoever invited me does not count here.
   */
  frozen: z.boolean(),
  friends: z.object({ registered: z.int(), verified: z.int(), qualified: z.int() }),
  totals: z.array(rewardTotals),
});
export type MyInvite = z.infer<typeof myInvite>;

/** A friend, as the inviter sees them: a masked name, a state and daily totals, never their trades. */
export const invitedFriend = z.object({
  id: z.int(),
  maskedName: z.string(),
  state: friendState,
  registeredAt: z.string(),
  /** Last day a reward is earned from this friend (registration + INVITE_REWARD_DAYS). */
  rewardsUntil: z.string(),
});
export type InvitedFriend = z.infer<typeof invitedFriend>;

/** One day's reward from one friend in one asset. */
export const inviteReward = z.object({
  id: z.int(),
  /** The UTC day the fees were collected (YYYY-MM-DD). */
  day: z.string(),
  friend: z.string(),
  asset: z.string(),
  /** What the inviter gets (after the rebate). */
  amount: decimalString,
  state: rewardState,
  reason: z.nullable(rewardReason),
  /** When it is (or was) paid: day + INVITE_HOLD_DAYS. */
  payableOn: z.string(),
  paidAt: z.nullable(z.string()),
});
export type InviteReward = z.infer<typeof inviteReward>;

export const inviteListQuery = z.object({
  /** Keyset: rows with an id below this one (newest first). */
  before: z.optional(wireId()),
});

export const inviteRebateBody = z.object({
  rebateBps: z.union([z.literal(0), z.literal(500), z.literal(1000)]),
});

/** Back office: one link (inviter → friend). */
export const inviteLinkAdmin = z.object({
  id: z.int(),
  inviterId: z.int(),
  inviter: z.string(),
  friendId: z.int(),
  friend: z.string(),
  state: friendState,
  registeredAt: z.string(),
  qualifiedAt: z.nullable(z.string()),
  /** Rules this link tripped at sign-up or since (same identity, device, address). */
  flags: z.array(rewardReason),
  frozen: z.boolean(),
  frozenReason: z.nullable(z.string()),
  paid: z.array(z.object({ asset: z.string(), amount: decimalString })),
});
export type InviteLinkAdmin = z.infer<typeof inviteLinkAdmin>;

export const inviteSettingsBody = z.object({
  shareBps: basisPoints,
  dailyCapUsdt: decimalString,
  enabled: z.boolean(),
});

export const inviteFreezeBody = z.object({
  linkId: wireId(),
  frozen: z.boolean(),
  reason: z.string().check(z.trim(), z.minLength(3), z.maxLength(500)),
});

export const inviteLinksQuery = z.object({
  /** An inviter's or friend's user id, name or email. */
  search: z.optional(z.string().check(z.maxLength(100))),
  before: z.optional(wireId()),
});

/** Back office: one payout day of one inviter (one ledger entry). */
export const invitePayoutAdmin = z.object({
  inviterId: z.int(),
  inviter: z.string(),
  day: z.string(),
  amounts: z.array(z.object({ asset: z.string(), amount: decimalString })),
  entryId: z.nullable(z.int()),
  paidAt: z.nullable(z.string()),
});

export const inviteAdminCalls = {
  getInviteSettings: {
    method: 'GET',
    path: '/invites/settings',
    summary: "The invite programme's terms",
    roles: STAFF_DUTIES.money.roles,
    data: inviteTerms,
  },
  updateInviteSettings: {
    method: 'POST',
    path: '/invites/settings/update',
    summary: 'Change the share, the daily cap or the switch (applies from the next day); audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: inviteSettingsBody,
    data: inviteTerms,
  },
  listInviteLinks: {
    method: 'GET',
    path: '/invites/links',
    summary: 'Invite links, newest first, with their state, flags and what was paid',
    roles: STAFF_DUTIES.money.roles,
    query: inviteLinksQuery,
    data: z.array(inviteLinkAdmin),
  },
  freezeInviteLink: {
    method: 'POST',
    path: '/invites/links/freeze',
    summary:
      'Freeze (or unfreeze) a link with a reason: nothing accrues while frozen, what is on hold is cancelled; audited',
    roles: STAFF_DUTIES.customerTerms.roles,
    body: inviteFreezeBody,
    data: inviteLinkAdmin,
  },
  listInvitePayouts: {
    method: 'GET',
    path: '/invites/payouts',
    summary: 'Reward payouts by inviter and day, newest first',
    roles: STAFF_DUTIES.money.roles,
    /** Keyset: rows after `day:inviterId` of the last row shown (day newest first, then inviter id). */
    query: z.object({ before: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}:\d{1,12}$/))) }),
    data: z.array(invitePayoutAdmin),
  },
} as const satisfies Record<string, AdminCallDefinition>;
