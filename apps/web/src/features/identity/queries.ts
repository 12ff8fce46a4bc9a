import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['identity'] as const;

/** Sign-in and security queries under one root key. */
export const identityQueries = {
  all,
  /** The providers the server offers (only configured ones); their labels are names, not text. */
  socialProviders: () =>
    queryOptions({
      queryKey: [...all, 'socialProviders'],
      queryFn: () => callApi('listSocialProviders'),
      staleTime: 10 * 60_000,
    }),
  totp: (userId: number) =>
    queryOptions({
      queryKey: [...all, 'totp', userId],
      queryFn: () => callApi('getTotpStatus'),
    }),
  sessions: (userId: number) =>
    queryOptions({
      queryKey: [...all, 'sessions', userId],
      queryFn: () => callApi('listSessions'),
    }),
};
