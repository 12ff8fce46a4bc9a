import {
  ASSET_SCALES,
  type Asset,
  Code,
  formatMinor,
  type InvitedFriend,
  type InviteLinkAdmin,
  type InviteReward,
  type InviteTerms,
  type MyInvite,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RegistrationHook } from '../identity/identity.service.ts';
import { addDays, utcDay } from '../products/figures.ts';
import { accrueDay, rewardsUntil } from './invites.accrual.ts';
import { cancelReversed, payDue, payoutAttachment } from './invites.payout.ts';
import {
  allLinksOfInviter,
  codeOf,
  insertCode,
  insertLink,
  type LinkRow,
  linkById,
  linkOfFriend,
  linksForStaff,
  linksOfInviter,
  ownerOfCode,
  setFrozen,
  setRebate,
} from './invites.repository.ts';
import {
  cancelOnHold,
  lastAccruedDay,
  paidOfLinks,
  payoutsForStaff,
  rewardsOfInviter,
  totalsOfInviter,
} from './invites.rewards.repository.ts';
import { currentTerms, updateTerms } from './invites.settings.ts';
import { type InvitesContext, maskName, newInviteCode, nowIso } from './invites.shared.ts';

const PAGE = 50;
/** Days a run catches up at most, oldest first (the rest in the next run). */
const CATCH_UP_DAYS = 31;
const DAY_MS = 86_400_000;
const scaleOf = (asset: string) => ASSET_SCALES[asset as Asset] ?? 0;

export type InvitesDeps = Omit<InvitesContext, 'payouts' | 'logger'> & { logger?: Logger | undefined };

/**
 * Invite friends (spec §2 `/profile/invite`): codes and links made at registration only, a daily
 * reward from the fees the ledger recorded from each qualified friend's live book, held
 * INVITE_HOLD_DAYS, then paid from the live fees account; refusals by the same-person rules, the
 * daily cap and staff freezes. Every call answers the caller's own data only.
 */
export class InvitesService {
  private readonly ctx: InvitesContext;

  constructor(deps: InvitesDeps) {
    this.ctx = {
      ...deps,
      logger: deps.logger,
      payouts: payoutAttachment(deps.ledger, deps.notices, deps.now),
    };
  }

  /** What identity calls at registration: the code checked first, the link made once the account exists. */
  registrationHook(): RegistrationHook {
    return {
      check: async (code) => {
        if ((await ownerOfCode(this.ctx.db, code.toUpperCase())) === null)
          throw new ApiError(Code.INVITE_CODE_UNKNOWN);
      },
      registered: async (userId, code, client) => {
        const inviterId = await ownerOfCode(this.ctx.db, code.toUpperCase());
        if (inviterId === null || inviterId === userId) return;
        await insertLink(this.ctx.db, {
          inviterId,
          friendId: userId,
          registeredAt: nowIso(this.ctx),
          flags: client.deviceOwner === inviterId ? ['same_device'] : [],
        });
      },
    };
  }

  /** The customer's code, made now when they have none (random, unique). */
  async codeOf(userId: number) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const row = await codeOf(this.ctx.db, userId);
      if (row) return row;
      await insertCode(this.ctx.db, userId, newInviteCode(), nowIso(this.ctx));
    }
    throw new Error(`no invite code could be made for ${userId}`);
  }

  async myInvite(userId: number): Promise<MyInvite> {
    const [code, terms, link, links] = await Promise.all([
      this.codeOf(userId),
      currentTerms(this.ctx),
      linkOfFriend(this.ctx.db, userId),
      allLinksOfInviter(this.ctx.db, userId),
    ]);
    const last = await lastAccruedDay(this.ctx.db);
    const [names, states, totals] = await Promise.all([
      link ? this.ctx.customers.namesOf([link.inviterId]) : Promise.resolve(new Map<number, string>()),
      this.ctx.kyc.statesOf(links.map((l) => l.friendId)),
      totalsOfInviter(this.ctx.db, userId, last),
    ]);
    const inviter = link ? names.get(link.inviterId) : undefined;
    return {
      terms,
      code: code.code,
      linkPath: `/register?invite=${code.code}`,
      rebateBps: code.rebateBps,
      invitedBy: inviter ? maskName(inviter) : null,
      frozen: links.some((l) => l.frozenAt !== null),
      friends: {
        registered: links.length,
        verified: links.filter((l) => states.get(l.friendId) === 'verified').length,
        qualified: links.filter((l) => l.qualifiedOn !== null).length,
      },
      totals: totals.map((t) => ({
        asset: t.asset,
        today: formatMinor(t.today, scaleOf(t.asset)),
        onHold: formatMinor(t.onHold, scaleOf(t.asset)),
        paid: formatMinor(t.paid, scaleOf(t.asset)),
      })),
    };
  }

  /** The caller's friends, newest first: a masked name, a state and dates, never their activity. */
  async friends(userId: number, before: number | undefined): Promise<InvitedFriend[]> {
    const links = await linksOfInviter(this.ctx.db, userId, before ?? null, PAGE);
    const ids = links.map((l) => l.friendId);
    const [names, states] = await Promise.all([this.ctx.customers.namesOf(ids), this.ctx.kyc.statesOf(ids)]);
    return links.map((l) => ({
      id: l.id,
      maskedName: maskName(names.get(l.friendId) ?? ''),
      state: this.stateOf(l, states.get(l.friendId) === 'verified'),
      registeredAt: l.registeredAt,
      rewardsUntil: rewardsUntil(l),
    }));
  }

  private stateOf(link: LinkRow, verified: boolean): InvitedFriend['state'] {
    if (link.frozenAt !== null) return 'frozen';
    if (utcDay(this.ctx.now()) > rewardsUntil(link)) return 'expired';
    if (link.qualifiedOn !== null) return 'qualified';
    return verified ? 'verified' : 'registered';
  }

  /** The caller's reward days, newest first. */
  async rewards(userId: number, before: number | undefined): Promise<InviteReward[]> {
    const rows = await rewardsOfInviter(this.ctx.db, userId, before ?? null, PAGE);
    const names = await this.ctx.customers.namesOf(rows.map((r) => r.friendId));
    return rows.map((r) => ({
      id: r.id,
      day: r.day,
      friend: maskName(names.get(r.friendId) ?? ''),
      asset: r.asset,
      amount: formatMinor(r.amount, scaleOf(r.asset)),
      state: r.state,
      reason: r.reason,
      payableOn: r.payableOn,
      paidAt: r.paidAt,
    }));
  }

  /** The part of the caller's reward they give back to their friends, from tomorrow. */
  async setRebate(userId: number, rebateBps: 0 | 500 | 1000): Promise<MyInvite> {
    await this.codeOf(userId);
    const from = addDays(utcDay(this.ctx.now()), 1);
    await this.ctx.db.transaction(async (tx) => {
      await setRebate(tx, userId, rebateBps, from);
      await this.ctx.audit.appendInTx(tx, [
        {
          actor: `user:${userId}`,
          action: 'invites.rebate.set',
          subject: `user:${userId}`,
          data: { rebateBps, from },
        },
      ]);
    });
    return this.myInvite(userId);
  }

  // The daily run

  /**
   * One run on the settlement runner's day (`due`: the day before the clock's): every day not yet
   * accrued up to `due` (at most CATCH_UP_DAYS, oldest first), what deposits reversed since cancel,
   * then every reward payable today. Answers the days it could not pay (the fees account short).
   */
  async runDaily(due: string): Promise<string[]> {
    const last = await lastAccruedDay(this.ctx.db);
    const first = last === null ? due : addDays(last, 1);
    let day = first;
    for (let n = 0; n < CATCH_UP_DAYS && day <= due; n++, day = addDays(day, 1))
      await accrueDay(this.ctx, day);
    // Deposits reversed from the first day this run accrued until now: what they left on hold.
    await cancelReversed(this.ctx, first <= due ? first : due, addDays(due, 1));
    return payDue(this.ctx, addDays(due, 1), due);
  }

  /** The due day of a clock: the day before its own. */
  dueDay(): string {
    return utcDay(this.ctx.now() - DAY_MS);
  }

  // Staff

  settings(): Promise<InviteTerms> {
    return currentTerms(this.ctx);
  }

  updateSettings(staffId: number, body: Parameters<typeof updateTerms>[2]): Promise<InviteTerms> {
    return updateTerms(this.ctx, staffId, body);
  }

  async links(query: {
    search?: string | undefined;
    before?: number | undefined;
  }): Promise<InviteLinkAdmin[]> {
    let userIds: number[] | null = null;
    const search = query.search?.trim();
    if (search) {
      userIds = (await this.ctx.customers.search(search, 200)).map((c) => c.id);
      if (/^\d{1,15}$/.test(search)) userIds.push(Number(search));
    }
    const links = await linksForStaff(this.ctx.db, { userIds, before: query.before ?? null, limit: PAGE });
    return this.adminWire(links);
  }

  /** Freezes (cancelling what is on hold: `fraud_flag`) or unfreezes a link, with its audit row. */
  async freeze(
    staffId: number,
    body: { linkId: number; frozen: boolean; reason: string },
  ): Promise<InviteLinkAdmin> {
    const at = nowIso(this.ctx);
    const link = await this.ctx.db.transaction(async (tx) => {
      const row = await setFrozen(tx, body.linkId, body.frozen ? { reason: body.reason, staffId, at } : null);
      if (!row) return null;
      const cancelled = body.frozen ? await cancelOnHold(tx, { linkIds: [row.id] }, 'fraud_flag', at) : 0;
      await this.ctx.audit.appendInTx(tx, [
        {
          actor: `staff:${staffId}`,
          action: body.frozen ? 'invites.link.frozen' : 'invites.link.unfrozen',
          subject: `invite_link:${row.id}`,
          data: { reason: body.reason, cancelled },
        },
      ]);
      return row;
    });
    if (!link) throw new ApiError(Code.NOT_FOUND);
    const [wire] = await this.adminWire([link]);
    if (!wire) throw new ApiError(Code.NOT_FOUND);
    return wire;
  }

  /** Payouts newest day first, then by inviter; `before` is the last row shown (`day:inviterId`). */
  async payouts(before: string | undefined) {
    const [day, inviter] = before?.split(':') ?? [];
    const after = day && inviter ? { day, inviterId: Number(inviter) } : null;
    const rows = await payoutsForStaff(this.ctx.db, after, PAGE);
    const names = await this.ctx.customers.namesOf(rows.map((r) => r.inviterId));
    return rows.map((r) => ({
      inviterId: r.inviterId,
      inviter: names.get(r.inviterId) ?? `#${r.inviterId}`,
      day: r.day,
      amounts: r.amounts.map((a) => ({ asset: a.asset, amount: formatMinor(a.amount, scaleOf(a.asset)) })),
      entryId: r.entryId,
      paidAt: r.paidAt,
    }));
  }

  /** A link as staff see it: names in full (staff are entitled to them), flags, what it paid. */
  private async adminWire(links: readonly LinkRow[]): Promise<InviteLinkAdmin[]> {
    const ids = links.flatMap((l) => [l.inviterId, l.friendId]);
    const [names, states, paid] = await Promise.all([
      this.ctx.customers.namesOf(ids),
      this.ctx.kyc.statesOf(links.map((l) => l.friendId)),
      paidOfLinks(
        this.ctx.db,
        links.map((l) => l.id),
      ),
    ]);
    return links.map((l) => ({
      id: l.id,
      inviterId: l.inviterId,
      inviter: names.get(l.inviterId) ?? `#${l.inviterId}`,
      friendId: l.friendId,
      friend: names.get(l.friendId) ?? `#${l.friendId}`,
      state: this.stateOf(l, states.get(l.friendId) === 'verified'),
      registeredAt: l.registeredAt,
      qualifiedAt: l.qualifiedOn,
      flags: l.flags,
      frozen: l.frozenAt !== null,
      frozenReason: l.frozenReason,
      paid: (paid.get(l.id) ?? []).map((p) => ({
        asset: p.asset,
        amount: formatMinor(p.amount, scaleOf(p.asset)),
      })),
    }));
  }

  /** For tests and the operator: the link of one id. */
  link(id: number): Promise<LinkRow | null> {
    return linkById(this.ctx.db, id);
  }
}
