import type { Queryable } from '../../platform/db.ts';
import type { RewardReason } from './invites.shared.ts';

/* The SQL of invite codes and links (rewards, days and payouts: invites.rewards.repository.ts). */

const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));

// Codes

export type CodeRow = {
  userId: number;
  code: string;
  rebateBps: number;
  rebatePrevBps: number;
  rebateFrom: string | null;
};
type RawCode = {
  user_id: string;
  code: string;
  rebate_bps: number;
  rebate_prev_bps: number;
  rebate_from: string | null;
};
const toCode = (r: RawCode): CodeRow => ({
  userId: Number(r.user_id),
  code: r.code,
  rebateBps: r.rebate_bps,
  rebatePrevBps: r.rebate_prev_bps,
  rebateFrom: r.rebate_from,
});
const CODE_COLUMNS = `user_id, code, rebate_bps, rebate_prev_bps, to_char(rebate_from, 'YYYY-MM-DD') AS rebate_from`;

export async function codeOf(db: Queryable, userId: number): Promise<CodeRow | null> {
  const rows = await db.query<RawCode>(`SELECT ${CODE_COLUMNS} FROM invite_codes WHERE user_id = $1`, [
    userId,
  ]);
  return rows[0] ? toCode(rows[0]) : null;
}

export async function codesOf(db: Queryable, userIds: readonly number[]): Promise<Map<number, CodeRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.query<RawCode>(
    `SELECT ${CODE_COLUMNS} FROM invite_codes WHERE user_id = ANY($1::bigint[])`,
    [userIds],
  );
  return new Map(rows.map((r) => [Number(r.user_id), toCode(r)]));
}

/** Gives the customer this code unless they have one (or the code is taken): false then. */
export async function insertCode(db: Queryable, userId: number, code: string, at: string): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO invite_codes (user_id, code, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id',
    [userId, code, at],
  );
  return rows.length > 0;
}

export async function ownerOfCode(db: Queryable, code: string): Promise<number | null> {
  const rows = await db.query<{ user_id: string }>('SELECT user_id FROM invite_codes WHERE code = $1', [
    code,
  ]);
  return rows[0] ? Number(rows[0].user_id) : null;
}

/** The rebate from `from` on; the one it replaces keeps the days before (a second change that day keeps the first's). */
export async function setRebate(db: Queryable, userId: number, bps: number, from: string): Promise<void> {
  await db.query(
    `UPDATE invite_codes SET
       rebate_prev_bps = CASE WHEN rebate_from IS NOT NULL AND rebate_from >= $3::date THEN rebate_prev_bps ELSE rebate_bps END,
       rebate_bps = $2, rebate_from = $3::date
     WHERE user_id = $1`,
    [userId, bps, from],
  );
}

// Links

export type LinkRow = {
  id: number;
  inviterId: number;
  friendId: number;
  registeredAt: string;
  qualifiedOn: string | null;
  identityChecked: boolean;
  flags: RewardReason[];
  frozenReason: string | null;
  frozenAt: string | null;
};
type RawLink = {
  id: string;
  inviter_id: string;
  friend_id: string;
  registered_at: Date | string;
  qualified_on: string | null;
  identity_checked: boolean;
  flags: RewardReason[];
  frozen_reason: string | null;
  frozen_at: Date | string | null;
};
const toLink = (r: RawLink): LinkRow => ({
  id: Number(r.id),
  inviterId: Number(r.inviter_id),
  friendId: Number(r.friend_id),
  registeredAt: iso(r.registered_at),
  qualifiedOn: r.qualified_on,
  identityChecked: r.identity_checked,
  flags: r.flags,
  frozenReason: r.frozen_reason,
  frozenAt: isoOrNull(r.frozen_at),
});
const LINK_COLUMNS = `id, inviter_id, friend_id, registered_at, to_char(qualified_on, 'YYYY-MM-DD') AS qualified_on,
  identity_checked, flags, frozen_reason, frozen_at`;

/** The link of a registration; false when the friend has one already (a link is made once). */
export async function insertLink(
  db: Queryable,
  link: { inviterId: number; friendId: number; registeredAt: string; flags: RewardReason[] },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO invite_links (inviter_id, friend_id, registered_at, flags) VALUES ($1, $2, $3, $4::text[])
     ON CONFLICT (friend_id) DO NOTHING RETURNING id`,
    [link.inviterId, link.friendId, link.registeredAt, link.flags],
  );
  return rows.length > 0;
}

export async function linkOfFriend(db: Queryable, friendId: number): Promise<LinkRow | null> {
  const rows = await db.query<RawLink>(`SELECT ${LINK_COLUMNS} FROM invite_links WHERE friend_id = $1`, [
    friendId,
  ]);
  return rows[0] ? toLink(rows[0]) : null;
}

export async function linkById(db: Queryable, id: number): Promise<LinkRow | null> {
  const rows = await db.query<RawLink>(`SELECT ${LINK_COLUMNS} FROM invite_links WHERE id = $1`, [id]);
  return rows[0] ? toLink(rows[0]) : null;
}

/** An inviter's links, newest first, below `before`. */
export async function linksOfInviter(
  db: Queryable,
  inviterId: number,
  before: number | null,
  limit: number,
): Promise<LinkRow[]> {
  const rows = await db.query<RawLink>(
    `SELECT ${LINK_COLUMNS} FROM invite_links WHERE inviter_id = $1 AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [inviterId, before, limit],
  );
  return rows.map(toLink);
}

/** Every link of an inviter (their friend counts). */
export async function allLinksOfInviter(db: Queryable, inviterId: number): Promise<LinkRow[]> {
  const rows = await db.query<RawLink>(`SELECT ${LINK_COLUMNS} FROM invite_links WHERE inviter_id = $1`, [
    inviterId,
  ]);
  return rows.map(toLink);
}

/** Links whose friend registered on `day` or in the INVITE_REWARD_DAYS before it (rewards may accrue on `day`). */
export async function linksForDay(db: Queryable, day: string, rewardDays: number): Promise<LinkRow[]> {
  const rows = await db.query<RawLink>(
    `SELECT ${LINK_COLUMNS} FROM invite_links
     WHERE registered_at < $1::date + 1 AND registered_at >= $1::date - $2::int ORDER BY id`,
    [day, rewardDays],
  );
  return rows.map(toLink);
}

export async function setQualified(
  db: Queryable,
  rows: readonly { id: number; day: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `UPDATE invite_links l SET qualified_on = q.day FROM unnest($1::bigint[], $2::date[]) AS q(id, day)
     WHERE l.id = q.id AND l.qualified_on IS NULL`,
    [rows.map((r) => r.id), rows.map((r) => r.day)],
  );
}

/** The friends are no longer qualified (their live deposits reversed): qualified again by the daily run. */
export async function clearQualified(db: Queryable, friendIds: readonly number[]): Promise<void> {
  if (friendIds.length === 0) return;
  await db.query('UPDATE invite_links SET qualified_on = NULL WHERE friend_id = ANY($1::bigint[])', [
    friendIds,
  ]);
}

/** Adds a rule's flag to links (sticky); `checked` also marks their identities compared. */
export async function flagLinks(
  db: Queryable,
  ids: readonly number[],
  flag: 'same_identity' | 'same_address' | null,
  checked = false,
): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE invite_links SET
       flags = CASE WHEN $2::text IS NULL OR $2 = ANY(flags) THEN flags ELSE flags || $2::text END,
       identity_checked = identity_checked OR $3
     WHERE id = ANY($1::bigint[])`,
    [ids, flag, checked],
  );
}

/** Freezes (reason) or unfreezes (null) a link; the link after, or null when it does not exist. */
export async function setFrozen(
  db: Queryable,
  id: number,
  frozen: { reason: string; staffId: number; at: string } | null,
): Promise<LinkRow | null> {
  const rows = await db.query<RawLink>(
    `UPDATE invite_links SET frozen_reason = $2, frozen_at = $3, frozen_by = $4 WHERE id = $1 RETURNING ${LINK_COLUMNS}`,
    [id, frozen?.reason ?? null, frozen?.at ?? null, frozen?.staffId ?? null],
  );
  return rows[0] ? toLink(rows[0]) : null;
}

/** Links for staff, newest first: of these customers (as inviter or friend) when given. */
export async function linksForStaff(
  db: Queryable,
  q: { userIds: readonly number[] | null; before: number | null; limit: number },
): Promise<LinkRow[]> {
  const rows = await db.query<RawLink>(
    `SELECT ${LINK_COLUMNS} FROM invite_links
     WHERE ($1::bigint[] IS NULL OR inviter_id = ANY($1::bigint[]) OR friend_id = ANY($1::bigint[]))
       AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [q.userIds, q.before, q.limit],
  );
  return rows.map(toLink);
}
