import type { Queryable } from '../../platform/db.ts';
import type { RewardReason } from './invites.shared.ts';

/* The SQL of reward days: rewards per link, day and asset, the days accrued, the payouts. */

export type RewardState = 'on_hold' | 'paid' | 'refused' | 'cancelled';

export type NewReward = {
  linkId: number;
  inviterId: number;
  friendId: number;
  day: string;
  asset: string;
  capped: boolean;
  fee: bigint;
  amount: bigint;
  rebate: bigint;
  shareBps: number;
  rebateBps: number;
  state: 'on_hold' | 'refused';
  reason: RewardReason | null;
  payableOn: string;
  /** The part of `fee` reversals gave back the same day. */
  feeReversed: bigint;
  /** The part of the share kept back to settle the link's carry (a reversed fee already paid for). */
  withheld: bigint;
};

const CHUNK = 5000;

/** Writes a day's rewards; one that exists already (a run replayed) is left as it is. */
export async function insertRewards(tx: Queryable, rows: readonly NewReward[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    const col = <K extends keyof NewReward>(k: K) => part.map((r) => r[k]);
    const big = (k: 'fee' | 'amount' | 'rebate' | 'feeReversed' | 'withheld') =>
      part.map((r) => r[k].toString());
    await tx.query(
      `INSERT INTO invite_rewards (link_id, inviter_id, friend_id, day, asset, capped, fee, amount, rebate,
         share_bps, rebate_bps, state, reason, payable_on, fee_reversed, withheld)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::date[], $5::text[], $6::boolean[],
         $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::int[], $12::text[], $13::text[], $14::date[],
         $15::numeric[], $16::numeric[])
       ON CONFLICT (link_id, day, asset, capped) DO NOTHING`,
      [
        col('linkId'),
        col('inviterId'),
        col('friendId'),
        col('day'),
        col('asset'),
        col('capped'),
        big('fee'),
        big('amount'),
        big('rebate'),
        col('shareBps'),
        col('rebateBps'),
        col('state'),
        col('reason'),
        col('payableOn'),
        big('feeReversed'),
        big('withheld'),
      ],
    );
  }
}

/** Cancels what is on hold of these friends (days up to `uptoDay`) or these links; answers how many. */
export async function cancelOnHold(
  tx: Queryable,
  of: { friendIds?: readonly number[]; linkIds?: readonly number[]; uptoDay?: string },
  reason: RewardReason,
  at: string,
): Promise<number> {
  if (!of.friendIds?.length && !of.linkIds?.length) return 0;
  const rows = await tx.query(
    `UPDATE invite_rewards SET state = 'cancelled', reason = $4, cancelled_at = $5
     WHERE state = 'on_hold' AND (friend_id = ANY($1::bigint[]) OR link_id = ANY($2::bigint[]))
       AND ($3::date IS NULL OR day <= $3::date)
     RETURNING id`,
    [of.friendIds ?? [], of.linkIds ?? [], of.uptoDay ?? null, reason, at],
  );
  return rows.length;
}

/** A day's reward of a friend in an asset as a reversal of its fee recomputes it. */
export type DayReward = {
  id: number;
  inviterId: number;
  capped: boolean;
  fee: bigint;
  feeReversed: bigint;
  amount: bigint;
  rebate: bigint;
  withheld: bigint;
  clawback: bigint;
  shareBps: number;
  rebateBps: number;
  state: RewardState;
};

/** The rows (the part within the cap, and above it) of a friend's day in an asset, locked. */
export async function dayRewardsOf(
  tx: Queryable,
  q: { friendId: number; day: string; asset: string },
): Promise<DayReward[]> {
  const rows = await tx.query<Record<string, string | boolean | number>>(
    `SELECT id, inviter_id, capped, fee::text, fee_reversed::text, amount::text, rebate::text, withheld::text,
       clawback::text, share_bps, rebate_bps, state
     FROM invite_rewards WHERE friend_id = $1 AND day = $2 AND asset = $3 ORDER BY capped FOR UPDATE`,
    [q.friendId, q.day, q.asset],
  );
  const big = (v: unknown) => BigInt(String(v));
  return rows.map((r) => ({
    id: Number(r.id),
    inviterId: Number(r.inviter_id),
    capped: r.capped === true,
    fee: big(r.fee),
    feeReversed: big(r.fee_reversed),
    amount: big(r.amount),
    rebate: big(r.rebate),
    withheld: big(r.withheld),
    clawback: big(r.clawback),
    shareBps: Number(r.share_bps),
    rebateBps: Number(r.rebate_bps),
    state: r.state as RewardState,
  }));
}

/** A reward's figures after a reversal of its fee (a paid one keeps its amount and rebate, and states its clawback). */
export async function setRewardFigures(
  tx: Queryable,
  id: number,
  f: { feeReversed: bigint; amount: bigint; rebate: bigint; withheld: bigint; clawback: bigint },
): Promise<void> {
  await tx.query(
    `UPDATE invite_rewards SET fee_reversed = $2, amount = $3, rebate = $4, withheld = $5, clawback = $6 WHERE id = $1`,
    [id, ...[f.feeReversed, f.amount, f.rebate, f.withheld, f.clawback].map(String)],
  );
}

/**
 * What each link still owes per asset (`link:asset` → minor units, positive only): what its paid
 * rewards paid for fees reversed since (clawback), less what its rewards on hold or paid kept back.
 */
export async function carriesOf(tx: Queryable, linkIds: readonly number[]): Promise<Map<string, bigint>> {
  if (linkIds.length === 0) return new Map();
  const rows = await tx.query<{ link_id: string; asset: string; carry: string }>(
    `SELECT link_id, asset, carry::text FROM (
       SELECT link_id, asset,
         coalesce(sum(clawback) FILTER (WHERE state = 'paid'), 0)
           - coalesce(sum(withheld) FILTER (WHERE state IN ('on_hold', 'paid')), 0) AS carry
       FROM invite_rewards WHERE link_id = ANY($1::bigint[]) AND (clawback > 0 OR withheld > 0)
       GROUP BY link_id, asset) c
     WHERE carry > 0`,
    [linkIds],
  );
  return new Map(rows.map((r) => [`${r.link_id}:${r.asset}`, BigInt(r.carry)]));
}

/** Rewards payable by `today` with nothing left to pay (all kept back, or their fee reversed): paid without an entry. */
export async function settleEmptyRewards(db: Queryable, today: string, at: string): Promise<number> {
  const rows = await db.query(
    `UPDATE invite_rewards SET state = 'paid', paid_at = $2
     WHERE state = 'on_hold' AND payable_on <= $1::date AND amount = 0 AND rebate = 0 RETURNING id`,
    [today, at],
  );
  return rows.length;
}

export async function lastAccruedDay(db: Queryable): Promise<string | null> {
  const rows = await db.query<{ day: string | null }>(
    `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM invite_days`,
  );
  return rows[0]?.day ?? null;
}

export async function dayAccrued(db: Queryable, day: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM invite_days WHERE day = $1', [day])).length > 0;
}

/** Records a day accrued; false when it was already (another run did it). */
export async function insertDay(
  tx: Queryable,
  d: { day: string; shareBps: number; capMinor: bigint; enabled: boolean; rewards: number; at: string },
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO invite_days (day, share_bps, daily_cap_minor, enabled, rewards, accrued_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (day) DO NOTHING RETURNING day`,
    [d.day, d.shareBps, d.capMinor.toString(), d.enabled, d.rewards, d.at],
  );
  return rows.length > 0;
}

/** Records the staff alert of a day whose payouts the fees account could not cover; false when one is recorded. */
export async function setUnfundedAlert(tx: Queryable, day: string, alertId: number): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE invite_days SET unfunded_alert = $2 WHERE day = $1 AND unfunded_alert IS NULL RETURNING day',
    [day, alertId],
  );
  return rows.length > 0;
}

export async function unfundedAlertOf(db: Queryable, day: string): Promise<number | null> {
  const rows = await db.query<{ unfunded_alert: string | null }>(
    'SELECT unfunded_alert FROM invite_days WHERE day = $1',
    [day],
  );
  return rows[0]?.unfunded_alert ? Number(rows[0].unfunded_alert) : null;
}

export type PayableReward = {
  id: number;
  inviterId: number;
  friendId: number;
  day: string;
  asset: string;
  amount: bigint;
  rebate: bigint;
  payableOn: string;
};

/**
 * On-hold rewards payable by `today`, of the first `limit` (payable day, inviter) groups after
 * `after` (one reward day has one payable day: a group is an inviter's day), in group order.
 */
export async function payableRewards(
  db: Queryable,
  today: string,
  after: { payableOn: string; inviterId: number } | null,
  limit: number,
): Promise<PayableReward[]> {
  const rows = await db.query<{
    id: string;
    inviter_id: string;
    friend_id: string;
    day: string;
    asset: string;
    amount: string;
    rebate: string;
    payable_on: string;
  }>(
    `WITH g AS (
       SELECT DISTINCT payable_on, inviter_id FROM invite_rewards
       WHERE state = 'on_hold' AND payable_on <= $1::date
         AND (payable_on, inviter_id) > ($2::date, $3::bigint)
       ORDER BY payable_on, inviter_id LIMIT $4
     )
     SELECT r.id, r.inviter_id, r.friend_id, to_char(r.day, 'YYYY-MM-DD') AS day, r.asset,
       r.amount::text, r.rebate::text, to_char(r.payable_on, 'YYYY-MM-DD') AS payable_on
     FROM invite_rewards r JOIN g ON g.payable_on = r.payable_on AND g.inviter_id = r.inviter_id
     WHERE r.state = 'on_hold'
     ORDER BY r.payable_on, r.inviter_id, r.id`,
    [today, after?.payableOn ?? '2000-01-01', after?.inviterId ?? 0, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    inviterId: Number(r.inviter_id),
    friendId: Number(r.friend_id),
    day: r.day,
    asset: r.asset,
    amount: BigInt(r.amount),
    rebate: BigInt(r.rebate),
    payableOn: r.payable_on,
  }));
}

/** What every reward payable by `today` needs of the fees account, per asset. */
export async function payableTotals(db: Queryable, today: string): Promise<Map<string, bigint>> {
  const rows = await db.query<{ asset: string; total: string }>(
    `SELECT asset, sum(amount + rebate)::text AS total FROM invite_rewards
     WHERE state = 'on_hold' AND payable_on <= $1::date GROUP BY asset`,
    [today],
  );
  return new Map(rows.map((r) => [r.asset, BigInt(r.total)]));
}

/** Marks rewards paid by their entries; answers how many were still on hold (all, or the payment is refused). */
export async function markPaid(
  tx: Queryable,
  paid: readonly { rewardId: number; entryId: number }[],
  at: string,
): Promise<number> {
  const rows = await tx.query(
    `UPDATE invite_rewards r SET state = 'paid', entry_id = p.entry_id, paid_at = $3
     FROM unnest($1::bigint[], $2::bigint[]) AS p(id, entry_id)
     WHERE r.id = p.id AND r.state = 'on_hold' RETURNING r.id`,
    [paid.map((p) => p.rewardId), paid.map((p) => p.entryId), at],
  );
  return rows.length;
}

export async function insertPayouts(
  tx: Queryable,
  rows: readonly { inviterId: number; day: string; entryId: number }[],
  at: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO invite_payouts (inviter_id, day, entry_id, paid_at)
     SELECT i, d, e, $4 FROM unnest($1::bigint[], $2::date[], $3::bigint[]) AS p(i, d, e)`,
    [rows.map((r) => r.inviterId), rows.map((r) => r.day), rows.map((r) => r.entryId), at],
  );
}

export type RewardRow = {
  id: number;
  linkId: number;
  friendId: number;
  day: string;
  asset: string;
  amount: bigint;
  state: RewardState;
  reason: RewardReason | null;
  payableOn: string;
  paidAt: string | null;
};

/** An inviter's rewards, newest first, below `before`. */
export async function rewardsOfInviter(
  db: Queryable,
  inviterId: number,
  before: number | null,
  limit: number,
): Promise<RewardRow[]> {
  const rows = await db.query<{
    id: string;
    link_id: string;
    friend_id: string;
    day: string;
    asset: string;
    amount: string;
    state: RewardState;
    reason: RewardReason | null;
    payable_on: string;
    paid_at: Date | string | null;
  }>(
    `SELECT id, link_id, friend_id, to_char(day, 'YYYY-MM-DD') AS day, asset, amount::text, state, reason,
       to_char(payable_on, 'YYYY-MM-DD') AS payable_on, paid_at
     FROM invite_rewards WHERE inviter_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [inviterId, before, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    linkId: Number(r.link_id),
    friendId: Number(r.friend_id),
    day: r.day,
    asset: r.asset,
    amount: BigInt(r.amount),
    state: r.state,
    reason: r.reason,
    payableOn: r.payable_on,
    paidAt: r.paid_at === null ? null : new Date(r.paid_at).toISOString(),
  }));
}

/** An inviter's totals per asset: accrued for `day` (the last day accrued), on hold, paid. */
export async function totalsOfInviter(
  db: Queryable,
  inviterId: number,
  day: string | null,
): Promise<{ asset: string; today: bigint; onHold: bigint; paid: bigint }[]> {
  const rows = await db.query<{ asset: string; today: string; on_hold: string; paid: string }>(
    `SELECT asset,
       coalesce(sum(amount) FILTER (WHERE day = $2::date AND state IN ('on_hold', 'paid')), 0)::text AS today,
       coalesce(sum(amount) FILTER (WHERE state = 'on_hold'), 0)::text AS on_hold,
       coalesce(sum(amount) FILTER (WHERE state = 'paid'), 0)::text AS paid
     FROM invite_rewards WHERE inviter_id = $1 GROUP BY asset ORDER BY asset`,
    [inviterId, day],
  );
  return rows.map((r) => ({
    asset: r.asset,
    today: BigInt(r.today),
    onHold: BigInt(r.on_hold),
    paid: BigInt(r.paid),
  }));
}

/** What each link paid its inviter, per asset. */
export async function paidOfLinks(
  db: Queryable,
  linkIds: readonly number[],
): Promise<Map<number, { asset: string; amount: bigint }[]>> {
  const out = new Map<number, { asset: string; amount: bigint }[]>();
  if (linkIds.length === 0) return out;
  const rows = await db.query<{ link_id: string; asset: string; amount: string }>(
    `SELECT link_id, asset, sum(amount)::text AS amount FROM invite_rewards
     WHERE link_id = ANY($1::bigint[]) AND state = 'paid' GROUP BY link_id, asset ORDER BY asset`,
    [linkIds],
  );
  for (const r of rows) {
    const list = out.get(Number(r.link_id)) ?? [];
    list.push({ asset: r.asset, amount: BigInt(r.amount) });
    out.set(Number(r.link_id), list);
  }
  return out;
}

/** Payouts for staff, newest day first, days before `beforeDay`: what each entry paid per asset (inviter and rebates). */
export async function payoutsForStaff(
  db: Queryable,
  after: { day: string; inviterId: number } | null,
  limit: number,
): Promise<
  {
    inviterId: number;
    day: string;
    entryId: number;
    paidAt: string;
    amounts: { asset: string; amount: bigint }[];
  }[]
> {
  const rows = await db.query<{
    inviter_id: string;
    day: string;
    entry_id: string;
    paid_at: Date | string;
    amounts: { asset: string; amount: string }[];
  }>(
    `SELECT p.inviter_id, to_char(p.day, 'YYYY-MM-DD') AS day, p.entry_id, p.paid_at,
       (SELECT json_agg(json_build_object('asset', a.asset, 'amount', a.total::text) ORDER BY a.asset)
        FROM (SELECT asset, sum(amount + rebate) AS total FROM invite_rewards r WHERE r.entry_id = p.entry_id
              GROUP BY asset) a) AS amounts
     FROM invite_payouts p
     WHERE ($1::date IS NULL OR p.day < $1::date OR (p.day = $1::date AND p.inviter_id > $3))
     ORDER BY p.day DESC, p.inviter_id LIMIT $2`,
    [after?.day ?? null, limit, after?.inviterId ?? 0],
  );
  return rows.map((r) => ({
    inviterId: Number(r.inviter_id),
    day: r.day,
    entryId: Number(r.entry_id),
    paidAt: new Date(r.paid_at).toISOString(),
    amounts: (r.amounts ?? []).map((a) => ({ asset: a.asset, amount: BigInt(a.amount) })),
  }));
}
