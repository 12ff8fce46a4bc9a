import type { Queryable } from '../../platform/db.ts';
import type { FeeReversal } from '../ledger/ledger.facts.ts';
import { carriesOf, dayRewardsOf, type NewReward, setRewardFigures } from './invites.rewards.repository.ts';
import type { InvitesContext } from './invites.shared.ts';

/*
 * Fees given back by reversals (a trade or swap entry reversed: its fee returns to the friend).
 * A reward is the share of the fee net of what reversals gave back:
 *  - reversed the day the fee was collected: that day's reward is made on the net fee;
 *  - reversed later, the reward still on hold (or refused, cancelled): recomputed on the net fee,
 *    the part above the daily cap reduced first;
 *  - reversed after the reward was paid: what it paid above the share of the net fee is its
 *    `clawback`, carried to the link's next rewards in the asset, whose share keeps it back
 *    (`withheld`, never below zero) until it is settled; a reward later cancelled gives back what
 *    it kept. What is still carried after the friend's 365 days is not recovered.
 */

/** Recomputes the rewards of the earlier days whose fees these reversals gave back (in the day's transaction). */
export async function applyFeeReversals(
  ctx: InvitesContext,
  tx: Queryable,
  reversals: readonly FeeReversal[],
): Promise<void> {
  for (const r of reversals) {
    const rows = await dayRewardsOf(tx, { friendId: r.ownerId, day: r.day, asset: r.asset });
    const within = rows.find((row) => !row.capped);
    if (!within) continue;
    const above = rows.find((row) => row.capped);
    const feeReversed = within.feeReversed + r.fee < within.fee ? within.feeReversed + r.fee : within.fee;
    const net = within.fee - feeReversed;
    const share = (net * BigInt(within.shareBps)) / 10_000n;
    const rebate = (net * BigInt(within.rebateBps)) / 10_000n;
    // The share within the cap (before what it kept back), reduced only once the part above is gone.
    const before = within.amount + within.rebate + within.withheld;
    const kept = before < share ? before : share;
    const keptRebate = share > 0n ? (rebate * kept) / share : 0n;
    if (within.state === 'paid') {
      const clawback = before - kept;
      await setRewardFigures(tx, within.id, { ...within, feeReversed, clawback });
      if (clawback > within.clawback)
        await ctx.audit.appendInTx(tx, [
          {
            actor: 'system',
            action: 'invites.reward.clawback',
            subject: `user:${within.inviterId}`,
            data: {
              rewardId: within.id,
              friendId: r.ownerId,
              day: r.day,
              asset: r.asset,
              clawback: String(clawback),
            },
          },
        ]);
    } else {
      const withheld = within.withheld < kept ? within.withheld : kept;
      const total = kept - withheld;
      const rebateLeft = kept > 0n ? (keptRebate * total) / kept : 0n;
      await setRewardFigures(tx, within.id, {
        ...within,
        feeReversed,
        amount: total - rebateLeft,
        rebate: rebateLeft,
        withheld,
      });
    }
    if (above)
      await setRewardFigures(tx, above.id, {
        ...above,
        feeReversed,
        amount: share - kept - (rebate - keptRebate),
        rebate: rebate - keptRebate,
      });
  }
}

/** The day's rewards on hold with the links' carries kept back from their share (before the cap). */
export async function withholdCarries(tx: Queryable, rows: readonly NewReward[]): Promise<NewReward[]> {
  const carries = await carriesOf(tx, [...new Set(rows.map((r) => r.linkId))]);
  if (carries.size === 0) return [...rows];
  return rows.map((row) => {
    const key = `${row.linkId}:${row.asset}`;
    const carry = carries.get(key) ?? 0n;
    const share = row.amount + row.rebate;
    if (row.state !== 'on_hold' || carry === 0n || share === 0n) return row;
    const withheld = carry < share ? carry : share;
    carries.set(key, carry - withheld);
    const total = share - withheld;
    const rebate = (row.rebate * total) / share;
    return { ...row, amount: total - rebate, rebate, withheld };
  });
}
