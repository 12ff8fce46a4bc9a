import { ASSET_SCALES, type Asset, formatMinor } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { type EntryAttachment, type LedgerService, WALLET } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { utcDay } from '../products/figures.ts';
import { clearQualified } from './invites.repository.ts';
import {
  cancelOnHold,
  insertPayouts,
  markPaid,
  type PayableReward,
  payableRewards,
  payableTotals,
  settleEmptyRewards,
  setUnfundedAlert,
  unfundedAlertOf,
} from './invites.rewards.repository.ts';
import { DEPOSIT_KINDS, type InvitesContext, nowIso, type PayoutRecord } from './invites.shared.ts';

/*
 * What is on hold is cancelled when a friend's deposit is reversed, and paid once payable: one
 * `referral` entry per inviter and reward day, from the live `fees` account to the inviter's
 * wallet (their part) and each friend's (their rebate), under the key `invite:<inviter>:<day>`;
 * the entry's attachment marks the rewards paid, records the payout and writes the inviter's
 * notice in the entry's transaction, so they exist exactly when the money moved.
 */

const PAGE = 500;
const ASSET_ORDER = Object.keys(ASSET_SCALES) as Asset[];

/** The `referral` attachment: refuses the payment when one of its rewards is no longer on hold. */
export function payoutAttachment(
  ledger: LedgerService,
  notices: Pick<NoticesService, 'notifyInTx'>,
  now: () => number,
): EntryAttachment<PayoutRecord, number> {
  return ledger.attachment<PayoutRecord, number>('referral', async (tx: Queryable, rows) => {
    const at = new Date(now()).toISOString();
    const paid = rows.flatMap((r) => r.data.rewardIds.map((rewardId) => ({ rewardId, entryId: r.entryId })));
    if ((await markPaid(tx, paid, at)) !== paid.length)
      throw new Error('a reward of this payout is no longer on hold');
    await insertPayouts(
      tx,
      rows.map((r) => ({ inviterId: r.data.inviterId, day: r.data.day, entryId: r.entryId })),
      at,
    );
    for (const r of rows)
      if (r.data.amounts !== '')
        await notices.notifyInTx(tx, r.data.inviterId, 'en', 'invite_reward_paid', {
          day: r.data.day,
          amounts: r.data.amounts,
        });
    return new Map(rows.map((r) => [r.entryId, r.data.rewardIds.length]));
  });
}

/**
 * Cancels what is on hold of friends whose live deposit was reversed on the days from..to; those
 * left with no live deposit standing are no longer qualified (the run qualifies them again from
 * the day a new one is credited).
 */
export async function cancelReversed(ctx: InvitesContext, from: string, to: string): Promise<number> {
  const reversed = await ctx.facts.reversedCredits({
    book: 'live',
    kind: DEPOSIT_KINDS[0] ?? 'deposit',
    from,
    to,
  });
  if (reversed.length === 0) return 0;
  const friendIds = reversed.map((r) => r.ownerId);
  const standing = await ctx.facts.standingCredits({
    book: 'live',
    ownerIds: friendIds,
    kinds: DEPOSIT_KINDS,
    day: utcDay(ctx.now()),
  });
  return ctx.db.transaction(async (tx) => {
    let n = 0;
    for (const r of reversed)
      n += await cancelOnHold(
        tx,
        { friendIds: [r.ownerId], uptoDay: utcDay(Date.parse(r.at)) },
        'deposit_reversed',
        nowIso(ctx),
      );
    await clearQualified(
      tx,
      friendIds.filter((id) => !standing.has(id)),
    );
    return n;
  });
}

/**
 * Pays every reward payable by `today` (one with nothing left to pay is settled without an entry).
 * When the live fees account cannot cover them all, nothing is paid, staff are alerted once for the
 * day, and the day is answered (the run fails and is tried again): a reward is paid from fees
 * collected, never from anywhere else.
 */
export async function payDue(ctx: InvitesContext, today: string, runDay: string): Promise<string[]> {
  await settleEmptyRewards(ctx.db, today, nowIso(ctx));
  const totals = await payableTotals(ctx.db, today);
  for (const [asset, needed] of totals) {
    const fees = await ctx.ledger.account(await ctx.ledger.systemAccount('live', asset as Asset, 'fees'));
    const available = (fees?.balance ?? 0n) - (fees?.held ?? 0n);
    if (available < needed) {
      await alertUnfunded(ctx, runDay, asset, needed, available);
      return [`invites live ${today}`];
    }
  }
  let after: { payableOn: string; inviterId: number } | null = null;
  for (;;) {
    const rows = await payableRewards(ctx.db, today, after, PAGE);
    const last = rows.at(-1);
    if (!last) break;
    const groups = new Map<string, PayableReward[]>();
    for (const r of rows) {
      const key = `${r.inviterId}:${r.day}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const wallets = await walletsOf(ctx, rows);
    const results = await Promise.allSettled([...groups.values()].map((g) => payGroup(ctx, g, wallets)));
    const refused = results.find((r) => r.status === 'rejected');
    if (refused) throw refused.reason;
    after = { payableOn: last.payableOn, inviterId: last.inviterId };
  }
  return [];
}

type Wallets = Map<string, number>;

/** The live wallets a page credits, per asset in one statement each (a first payment creates them): `asset:owner` → id. */
async function walletsOf(ctx: InvitesContext, rows: readonly PayableReward[]): Promise<Wallets> {
  const out: Wallets = new Map();
  for (const asset of new Set(rows.map((r) => r.asset as Asset))) {
    const owners = rows.filter((r) => r.asset === asset).flatMap((r) => [r.inviterId, r.friendId]);
    for (const [owner, id] of await ctx.ledger.customerAccounts('live', owners, asset, WALLET))
      out.set(`${asset}:${owner}`, id);
  }
  return out;
}

/** One inviter's day: one `referral` entry, fees → inviter (their part) and friends (rebates). */
async function payGroup(
  ctx: InvitesContext,
  rewards: readonly PayableReward[],
  wallets: Wallets,
): Promise<void> {
  const first = rewards[0];
  if (!first) return;
  const credits = new Map<string, { asset: Asset; ownerId: number; amount: bigint }>();
  const credit = (asset: Asset, ownerId: number, amount: bigint) => {
    if (amount === 0n) return;
    const key = `${asset}:${ownerId}`;
    const c = credits.get(key) ?? { asset, ownerId, amount: 0n };
    c.amount += amount;
    credits.set(key, c);
  };
  const inviterTotals = new Map<Asset, bigint>();
  for (const r of rewards) {
    const asset = r.asset as Asset;
    credit(asset, first.inviterId, r.amount);
    credit(asset, r.friendId, r.rebate);
    inviterTotals.set(asset, (inviterTotals.get(asset) ?? 0n) + r.amount);
  }
  const postings: { accountId: number; amount: bigint }[] = [];
  const fromFees = new Map<Asset, bigint>();
  for (const c of credits.values()) {
    postings.push({
      accountId: wallets.get(`${c.asset}:${c.ownerId}`) ?? -1,
      amount: c.amount,
    });
    fromFees.set(c.asset, (fromFees.get(c.asset) ?? 0n) + c.amount);
  }
  for (const [asset, amount] of fromFees)
    postings.push({ accountId: await ctx.ledger.systemAccount('live', asset, 'fees'), amount: -amount });
  const amounts = ASSET_ORDER.filter((a) => (inviterTotals.get(a) ?? 0n) > 0n)
    .map((a) => `${formatMinor(inviterTotals.get(a) ?? 0n, ASSET_SCALES[a])} ${a}`)
    .join('; ');
  const record: PayoutRecord = {
    inviterId: first.inviterId,
    day: first.day,
    rewardIds: rewards.map((r) => r.id),
    amounts,
  };
  if (postings.length === 0) return;
  await ctx.ledger.transfer({
    book: 'live',
    kind: 'referral',
    idempotencyKey: `invite:${first.inviterId}:${first.day}`,
    actor: 'system',
    reference: `invites:${first.inviterId}:${first.day}`,
    postings,
    attach: ctx.payouts.with(record),
  });
}

async function alertUnfunded(
  ctx: InvitesContext,
  day: string,
  asset: string,
  needed: bigint,
  available: bigint,
) {
  if ((await unfundedAlertOf(ctx.db, day)) !== null) return;
  const message = `invite rewards payable by ${day} need ${needed} minor units of ${asset} from the live fees account, which has ${available} available; nothing is paid until it covers them`;
  await ctx.db.transaction(async (tx) => {
    const alertId = await ctx.audit.alertStaffInTx(tx, 'settlement', message, {
      product: 'invites',
      day,
      asset,
      neededMinor: needed.toString(),
      availableMinor: available.toString(),
    });
    if (!(await setUnfundedAlert(tx, day, alertId))) throw new Error('unfunded day already alerted');
  });
  ctx.logger?.error({ day, asset }, 'invites: the fees account cannot cover the payable rewards');
}
