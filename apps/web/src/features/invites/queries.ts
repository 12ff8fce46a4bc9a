import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { nextBefore } from './invite.ts';

/** Rows the server gives per page of friends or rewards (modules/invites). */
export const INVITE_PAGE_SIZE = 50;

const all = ['invites'] as const;

/**
 * Invite friends, under one root key: a change of the rebate invalidates `inviteQueries.all`.
 * Each key carries the customer. Nothing here is worded by the server (names come masked, states
 * and reasons as codes the page words), so the language is not in the keys. Rewards are paid in the
 * live book only, whichever book the customer looks at, so the book is not in them either.
 */
export const inviteQueries = {
  all,
  summary: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'summary'],
      queryFn: () => callApi('getMyInvite'),
    }),
  friends: (userId: number) =>
    infiniteQueryOptions({
      queryKey: [...all, userId, 'friends'],
      queryFn: ({ pageParam }) =>
        callApi('listInvitedFriends', { query: pageParam === 0 ? {} : { before: pageParam } }),
      initialPageParam: 0,
      getNextPageParam: (last) => nextBefore(last, INVITE_PAGE_SIZE),
    }),
  rewards: (userId: number) =>
    infiniteQueryOptions({
      queryKey: [...all, userId, 'rewards'],
      queryFn: ({ pageParam }) =>
        callApi('listInviteRewards', { query: pageParam === 0 ? {} : { before: pageParam } }),
      initialPageParam: 0,
      getNextPageParam: (last) => nextBefore(last, INVITE_PAGE_SIZE),
    }),
};
