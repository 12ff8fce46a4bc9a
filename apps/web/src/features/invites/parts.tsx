import type { InvitedFriend, InviteReward } from '@swx/contract';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFigureFormat } from '../../app/figures.ts';
import { formatPercent } from '../../app/money.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import type { Tone } from '../../ui/product/Facts.tsx';
import { bpsRatio } from './invite.ts';

type FriendState = InvitedFriend['state'];
type RewardState = InviteReward['state'];
type RewardReason = NonNullable<InviteReward['reason']>;

/**
 * The invite page's formatters: the product kit's, and basis points as a percentage ("20%"; in
 * Arabic, Intl's own marks keep the sign on its number).
 */
export function useInviteFormat() {
  const f = useFigureFormat('\u00a0');
  return { ...f, percent: (bps: number) => formatPercent(f.language, bpsRatio(bps)) };
}

/** The tone of a friend's state (its words say it; the colour only repeats them). */
const FRIEND_TONES: Partial<Record<FriendState, Tone>> = {
  verified: 'brand',
  qualified: 'success',
  frozen: 'danger',
};

/** A friend's state in words, with its mark. */
export function FriendStateWord({ state }: { state: FriendState }) {
  const { t } = useTranslation();
  return (
    <span className="product-chip" data-state={state} data-tone={FRIEND_TONES[state]}>
      {t(`invite.friendState.${state}`)}
    </span>
  );
}

const REWARD_TONES: Partial<Record<RewardState, Tone>> = {
  on_hold: 'caution',
  paid: 'success',
  refused: 'danger',
  cancelled: 'danger',
};

/** A reward day's state in words, and why it was refused or cancelled (a rule of the programme). */
export function RewardStateWord({ state, reason }: { state: RewardState; reason: RewardReason | null }) {
  const { t } = useTranslation();
  return (
    <span className="invite-reward-state">
      <span className="product-chip" data-state={state} data-tone={REWARD_TONES[state]}>
        {t(`invite.rewardState.${state}`)}
      </span>
      {reason ? (
        <span className="small muted" data-reason={reason}>
          {t(`invite.reason.${reason}`)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * A list read page by page (newest first): loading, the error with a retry, empty, then the rows
 * (`children`) and "Load more" while the server has more (`before` the last row shown).
 */
export function PagedList<Row extends { id: number }>({
  query,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<Row[]>>;
  empty: string;
  children: (rows: Row[]) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const rows = query.data?.pages.flat() ?? [];
  if (query.isPending) return <Loading />;
  if (query.isError && rows.length === 0)
    return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (rows.length === 0) return <Empty text={empty} />;
  return (
    <>
      {children(rows)}
      {query.isFetchNextPageError ? (
        <Failed message={query.error?.message} onRetry={() => void query.fetchNextPage()} />
      ) : query.hasNextPage ? (
        <button
          type="button"
          className="button ghost block"
          aria-disabled={query.isFetchingNextPage || undefined}
          onClick={() => {
            if (!query.isFetchingNextPage) void query.fetchNextPage();
          }}
        >
          {query.isFetchingNextPage ? t('state.loading') : t('invite.more')}
        </button>
      ) : null}
    </>
  );
}
