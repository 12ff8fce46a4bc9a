import type { InvitedFriend, InviteReward, MyInvite } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Empty } from '../../ui/PageState.tsx';
import { Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { FriendStateWord, PagedList, RewardStateWord, useInviteFormat } from './parts.tsx';
import { inviteQueries } from './queries.ts';

/** My friends by state: how many registered with my code, are verified, and qualify. */
function FriendCounts({ friends }: { friends: MyInvite['friends'] }) {
  const { t } = useTranslation();
  const f = useInviteFormat();
  return (
    <>
      <Facts
        className="product-fact-grid invite-counts"
        mark="fact"
        testId="invite-counts"
        facts={(['registered', 'verified', 'qualified'] as const).map((state) => ({
          name: state,
          label: t(`invite.counts.${state}`),
          shown: f.count(friends[state]),
          value: String(friends[state]),
        }))}
      />
      <p className="small muted">{t('invite.counts.note')}</p>
    </>
  );
}

/** My rewards per asset: the last day counted (the server's `today`: the latest day accrued), on hold, and paid. */
export function RewardTotals({ totals }: { totals: MyInvite['totals'] }) {
  const { t } = useTranslation();
  const f = useInviteFormat();
  return (
    <section className="card product-card" aria-labelledby="invite-totals-title" data-testid="invite-totals">
      <h2 id="invite-totals-title">{t('invite.totals.title')}</h2>
      {totals.length === 0 ? (
        <Empty text={t('invite.totals.empty')} />
      ) : (
        <ScrollTable
          label={t('invite.totals.title')}
          cards
          head={[
            { text: t('invite.totals.asset') },
            { text: t('invite.totals.today'), num: true },
            { text: t('invite.totals.onHold'), num: true },
            { text: t('invite.totals.paid'), num: true },
          ]}
        >
          {totals.map((row) => (
            <tr key={row.asset} data-asset={row.asset}>
              <th scope="row">{row.asset}</th>
              <td className="num" data-value={row.today}>
                {f.money(row.today, row.asset)}
              </td>
              <td className="num" data-value={row.onHold}>
                {f.money(row.onHold, row.asset)}
              </td>
              <td className="num" data-value={row.paid}>
                {f.money(row.paid, row.asset)}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      <p className="small muted">{t('invite.totals.note')}</p>
    </section>
  );
}

function FriendRow({ friend }: { friend: InvitedFriend }) {
  const f = useInviteFormat();
  return (
    <tr data-friend={friend.id} data-state={friend.state}>
      <th scope="row">
        <bdi>{friend.maskedName}</bdi>
      </th>
      <td>
        <FriendStateWord state={friend.state} />
      </td>
      <td>{f.day(friend.registeredAt)}</td>
      <td>{f.day(friend.rewardsUntil)}</td>
    </tr>
  );
}

/**
 * My friends: how many by state, then those who registered with my code, newest first (a masked
 * name, a state and dates, never their activity).
 */
export function FriendList({ userId, friends }: { userId: number; friends: MyInvite['friends'] }) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(inviteQueries.friends(userId));
  return (
    <section
      className="card product-card"
      aria-labelledby="invite-friends-title"
      data-testid="invite-friends"
    >
      <h2 id="invite-friends-title">{t('invite.counts.title')}</h2>
      <FriendCounts friends={friends} />
      <PagedList query={query} empty={t('invite.friends.empty')}>
        {(rows) => (
          <ScrollTable
            label={t('invite.friends.title')}
            cards
            head={[
              { text: t('invite.friends.friend') },
              { text: t('invite.friends.state') },
              { text: t('invite.friends.registered') },
              { text: t('invite.friends.until') },
            ]}
          >
            {rows.map((friend) => (
              <FriendRow key={friend.id} friend={friend} />
            ))}
          </ScrollTable>
        )}
      </PagedList>
    </section>
  );
}

/** When a day's reward is paid: paid at, payable on, or not at all (refused or cancelled). */
function PaidWhen({ reward }: { reward: InviteReward }) {
  const { t } = useTranslation();
  const f = useInviteFormat();
  if (reward.state === 'paid' && reward.paidAt)
    return <>{t('invite.rewards.paidAt', { time: f.date(reward.paidAt) })}</>;
  if (reward.state === 'on_hold')
    return <>{t('invite.rewards.payableOn', { day: f.day(reward.payableOn) })}</>;
  return <>{t('invite.rewards.notPaid')}</>;
}

function RewardRow({ reward }: { reward: InviteReward }) {
  const f = useInviteFormat();
  return (
    <tr data-reward={reward.id} data-state={reward.state}>
      <th scope="row">{f.day(reward.day)}</th>
      <td>
        <bdi>{reward.friend}</bdi>
      </td>
      <td className="num" data-value={reward.amount} data-asset={reward.asset}>
        {f.money(reward.amount, reward.asset)}
      </td>
      <td>
        <RewardStateWord state={reward.state} reason={reward.reason} />
      </td>
      <td>
        <PaidWhen reward={reward} />
      </td>
    </tr>
  );
}

/** My reward days, newest first: per friend and asset, with their state and when they are paid. */
export function RewardList({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(inviteQueries.rewards(userId));
  return (
    <section
      className="card product-card"
      aria-labelledby="invite-rewards-title"
      data-testid="invite-rewards"
    >
      <h2 id="invite-rewards-title">{t('invite.rewards.title')}</h2>
      <PagedList query={query} empty={t('invite.rewards.empty')}>
        {(rows) => (
          <ScrollTable
            label={t('invite.rewards.title')}
            cards
            head={[
              { text: t('invite.rewards.day') },
              { text: t('invite.rewards.friend') },
              { text: t('invite.rewards.amount'), num: true },
              { text: t('invite.rewards.state') },
              { text: t('invite.rewards.when') },
            ]}
          >
            {rows.map((reward) => (
              <RewardRow key={reward.id} reward={reward} />
            ))}
          </ScrollTable>
        )}
      </PagedList>
    </section>
  );
}
