import { type Asset, INVITE_HOLD_DAYS, INVITE_REWARD_DAYS } from '@swx/contract';
import type { FeeDay, FeeReversal } from '../ledger/ledger.facts.ts';
import { addDays, utcDay } from '../products/figures.ts';
import {
  type CodeRow,
  codesOf,
  flagLinks,
  type LinkRow,
  linksForDay,
  setQualified,
} from './invites.repository.ts';
import { applyFeeReversals, withholdCarries } from './invites.reversals.ts';
import {
  cancelOnHold,
  dayAccrued,
  insertDay,
  insertRewards,
  type NewReward,
} from './invites.rewards.repository.ts';
import { capInAsset, type Terms, termsFor } from './invites.settings.ts';
import {
  DEPOSIT_KINDS,
  FEE_KINDS,
  type InvitesContext,
  identityFingerprint,
  nowIso,
  shareAnAddress,
  TRADE_KINDS,
} from './invites.shared.ts';

/*
 * A day's accrual, after the day closes: the links whose friend qualified (verified, a live deposit,
 * a first live trade) and is within INVITE_REWARD_DAYS of registering, the fees the ledger recorded
 * from each friend's live book that day, a reward per friend and asset (the share, less the
 * rebate to the friend), on hold until INVITE_HOLD_DAYS later; refused when the link tripped a
 * same-person rule or is frozen, and above the inviter's daily cap. The rows and the day are
 * written in one transaction: a day runs once, a run that dies writes nothing.
 */

/** The last day a friend's fees earn a reward: registration day + INVITE_REWARD_DAYS. */
export const rewardsUntil = (link: Pick<LinkRow, 'registeredAt'>) =>
  addDays(utcDay(Date.parse(link.registeredAt)), INVITE_REWARD_DAYS);

const rebateOn = (code: CodeRow | undefined, day: string) =>
  !code ? 0 : code.rebateFrom === null || day >= code.rebateFrom ? code.rebateBps : code.rebatePrevBps;

/** Accrues `day` unless it was; answers how many reward rows it wrote. */
export async function accrueDay(ctx: InvitesContext, day: string): Promise<number> {
  if (await dayAccrued(ctx.db, day)) return 0;
  const terms = await termsFor(ctx, day);
  const links = (await linksForDay(ctx.db, day, INVITE_REWARD_DAYS)).filter((l) => day <= rewardsUntil(l));
  await qualify(ctx, links);
  const sameIdentity = await compareIdentities(ctx, links);
  const counted = links.filter((l) => l.qualifiedOn !== null && l.qualifiedOn <= day);
  // Fees reversed today: of today's entries, netted in today's fee; of earlier days', their rewards recomputed.
  const reversals = await ctx.facts.feesReversed({ book: 'live', from: day, to: day, kinds: FEE_KINDS });
  const fees = terms.enabled ? await dayFees(ctx, day, counted, reversals) : [];
  const byFriend = new Map(counted.map((l) => [l.friendId, l]));
  const paying = [...new Set(fees.map((f) => f.ownerId))].flatMap((id) => byFriend.get(id) ?? []);
  const sameAddress = await compareAddresses(ctx, paying);
  const codes = await codesOf(ctx.db, [...new Set(paying.map((l) => l.inviterId))]);
  const rows: NewReward[] = [];
  for (const f of fees.sort((a, b) => a.ownerId - b.ownerId || a.asset.localeCompare(b.asset))) {
    const link = byFriend.get(f.ownerId);
    const net = f.fee - f.reversed;
    if (!link || net <= 0n) continue;
    const rebateBps = Math.min(rebateOn(codes.get(link.inviterId), day), terms.shareBps);
    const share = (net * BigInt(terms.shareBps)) / 10_000n;
    const rebate = (net * BigInt(rebateBps)) / 10_000n;
    if (share === 0n) continue;
    const reason = link.flags[0] ?? (link.frozenAt !== null ? 'frozen' : null);
    rows.push({
      linkId: link.id,
      inviterId: link.inviterId,
      friendId: link.friendId,
      day,
      asset: f.asset,
      capped: false,
      fee: f.fee,
      feeReversed: f.reversed,
      amount: share - rebate,
      rebate,
      withheld: 0n,
      shareBps: terms.shareBps,
      rebateBps,
      state: reason ? 'refused' : 'on_hold',
      reason,
      payableOn: addDays(day, INVITE_HOLD_DAYS),
    });
  }
  const at = nowIso(ctx);
  return ctx.db.transaction(async (tx) => {
    // A rule found today also cancels what the link still holds.
    await cancelOnHold(tx, { linkIds: sameIdentity }, 'same_identity', at);
    await cancelOnHold(tx, { linkIds: sameAddress }, 'same_address', at);
    await applyFeeReversals(
      ctx,
      tx,
      reversals.filter((r) => r.day < day),
    );
    const capped = applyCaps(ctx, terms, await withholdCarries(tx, rows));
    await insertRewards(tx, capped);
    await insertDay(tx, {
      day,
      shareBps: terms.shareBps,
      capMinor: terms.dailyCapMinor,
      enabled: terms.enabled,
      rewards: capped.length,
      at,
    });
    return capped.length;
  });
}

/**
 * The day's fees per counted friend and asset (`reversed`: what reversals made the same day gave
 * back of them), of friends whose live deposit still stands at the day's end: a friend whose live
 * deposits were all reversed earns nothing until a new one is credited.
 */
async function dayFees(
  ctx: InvitesContext,
  day: string,
  counted: readonly LinkRow[],
  reversals: readonly FeeReversal[],
): Promise<(FeeDay & { reversed: bigint })[]> {
  const fees = await ctx.facts.feesCollected({
    book: 'live',
    from: day,
    to: day,
    kinds: FEE_KINDS,
    ownerIds: counted.map((l) => l.friendId),
  });
  const standing = await ctx.facts.standingCredits({
    book: 'live',
    ownerIds: [...new Set(fees.map((f) => f.ownerId))],
    kinds: DEPOSIT_KINDS,
    day,
  });
  const sameDay = new Map<string, bigint>();
  for (const r of reversals.filter((x) => x.day === day))
    sameDay.set(`${r.ownerId}:${r.asset}`, (sameDay.get(`${r.ownerId}:${r.asset}`) ?? 0n) + r.fee);
  return fees
    .filter((f) => standing.has(f.ownerId))
    .map((f) => ({ ...f, reversed: sameDay.get(`${f.ownerId}:${f.asset}`) ?? 0n }));
}

/**
 * The daily cap per inviter and asset (its USDT value): rewards on hold in link order fill it; the
 * part of a reward above it is a second row, refused `daily_cap` (its rebate split in proportion).
 */
function applyCaps(ctx: InvitesContext, terms: Terms, rows: readonly NewReward[]): NewReward[] {
  const left = new Map<string, bigint>();
  const out: NewReward[] = [];
  for (const row of [...rows].sort((a, b) => a.inviterId - b.inviterId || a.linkId - b.linkId)) {
    if (row.state !== 'on_hold') {
      out.push(row);
      continue;
    }
    const key = `${row.inviterId}:${row.asset}`;
    const room = left.get(key) ?? capInAsset(ctx, terms.dailyCapMinor, row.asset as Asset);
    const total = row.amount + row.rebate;
    if (total <= room) {
      left.set(key, room - total);
      out.push(row);
      continue;
    }
    left.set(key, 0n);
    const rebateIn = (row.rebate * room) / total;
    const amountIn = room - rebateIn;
    if (room > 0n) out.push({ ...row, amount: amountIn, rebate: rebateIn });
    out.push({
      ...row,
      withheld: 0n,
      capped: true,
      amount: row.amount - amountIn,
      rebate: row.rebate - rebateIn,
      state: 'refused',
      reason: 'daily_cap',
    });
  }
  return out;
}

/**
 * Links not yet qualified whose friend now is: verified (kyc), a live deposit credited and a live
 * trade made (ledger), none reversed. The qualifying day is the last of the three.
 */
async function qualify(ctx: InvitesContext, links: LinkRow[]): Promise<void> {
  const waiting = links.filter((l) => l.qualifiedOn === null);
  if (waiting.length === 0) return;
  const states = await ctx.kyc.statesOf(waiting.map((l) => l.friendId));
  const verified = waiting.filter((l) => states.get(l.friendId) === 'verified').map((l) => l.friendId);
  if (verified.length === 0) return;
  const [deposits, trades] = await Promise.all([
    ctx.facts.firstEntries({ book: 'live', ownerIds: verified, kinds: DEPOSIT_KINDS, credit: true }),
    ctx.facts.firstEntries({ book: 'live', ownerIds: verified, kinds: TRADE_KINDS, credit: false }),
  ]);
  const qualified: { id: number; day: string }[] = [];
  for (const link of waiting) {
    const deposit = deposits.get(link.friendId);
    const trade = trades.get(link.friendId);
    if (!deposit || !trade) continue;
    const reviewedAt = (await ctx.kyc.status(link.friendId)).reviewedAt ?? nowIso(ctx);
    const day = [deposit, trade, reviewedAt].map((at) => utcDay(Date.parse(at))).sort()[2] as string;
    link.qualifiedOn = day;
    qualified.push({ id: link.id, day });
  }
  await setQualified(ctx.db, qualified);
}

/**
 * Qualified links whose inviter is verified too are compared once: the same verified identity flags
 * them. Answers the links flagged now.
 */
async function compareIdentities(ctx: InvitesContext, links: LinkRow[]): Promise<number[]> {
  const open = links.filter((l) => l.qualifiedOn !== null && !l.identityChecked);
  if (open.length === 0) return [];
  const states = await ctx.kyc.statesOf([...new Set(open.map((l) => l.inviterId))]);
  const both = open.filter((l) => states.get(l.inviterId) === 'verified');
  const same: number[] = [];
  for (const link of both) {
    const [friend, inviter] = await Promise.all([
      ctx.kyc.status(link.friendId),
      ctx.kyc.status(link.inviterId),
    ]);
    if (
      friend.details &&
      inviter.details &&
      identityFingerprint(friend.details) === identityFingerprint(inviter.details)
    ) {
      same.push(link.id);
      if (!link.flags.includes('same_identity')) link.flags = [...link.flags, 'same_identity'];
    }
    link.identityChecked = true;
  }
  await flagLinks(ctx.db, same, 'same_identity', true);
  await flagLinks(
    ctx.db,
    both.filter((l) => !same.includes(l.id)).map((l) => l.id),
    null,
    true,
  );
  return same;
}

/**
 * Links whose friend and inviter share an address (a withdrawal address both named, or a deposit
 * of one sent from an address of the other): flagged `same_address` (answered).
 */
async function compareAddresses(ctx: InvitesContext, links: LinkRow[]): Promise<number[]> {
  const open = links.filter((l) => !l.flags.includes('same_address'));
  if (open.length === 0) return [];
  const addresses = await ctx.addresses([...new Set(open.flatMap((l) => [l.friendId, l.inviterId]))]);
  const flagged = open.filter((l) => shareAnAddress(addresses.get(l.friendId), addresses.get(l.inviterId)));
  for (const link of flagged) link.flags = [...link.flags, 'same_address'];
  await flagLinks(
    ctx.db,
    flagged.map((l) => l.id),
    'same_address',
  );
  return flagged.map((l) => l.id);
}
