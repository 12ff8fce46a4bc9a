import { z } from 'zod/mini';
import { invitedFriend, inviteListQuery, inviteRebateBody, inviteReward, myInvite } from '../invites.ts';
import { type CallDefinition, call } from './define.ts';

/** Invite friends (`modules/invites`): my code and link, my friends (masked), my rewards. */
export const invitesCalls = {
  getMyInvite: call({
    method: 'GET',
    path: '/user/invite/summary',
    summary:
      "The programme's terms, my invite code and link, who invited me (masked), my friends by state and my rewards by asset (today, on hold, paid)",
    auth: true,
    status: 'live',
    data: myInvite,
  }),
  listInvitedFriends: call({
    method: 'GET',
    path: '/user/invite/friends',
    summary:
      'Friends who registered with my code, newest first: masked name, state, dates; never their activity',
    auth: true,
    status: 'live',
    query: inviteListQuery,
    data: z.array(invitedFriend),
  }),
  listInviteRewards: call({
    method: 'GET',
    path: '/user/invite/rewards',
    summary:
      'My reward days, newest first: per friend (masked) and asset, on hold, paid, refused or cancelled with the reason',
    auth: true,
    status: 'live',
    query: inviteListQuery,
    data: z.array(inviteReward),
  }),
  setInviteRebate: call({
    method: 'POST',
    path: '/user/invite/rebate',
    summary:
      'The part of my reward I give back to my friends (0, 500 or 1000 basis points of the fee); applies from the next day',
    auth: true,
    status: 'live',
    body: inviteRebateBody,
    data: myInvite,
  }),
} as const satisfies Record<string, CallDefinition>;
