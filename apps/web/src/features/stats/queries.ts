import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['stats'] as const;

/** The platform's figures (counted live by the server; the same in every language). */
export const statsQueries = {
  all,
  platform: () =>
    queryOptions({
      queryKey: [...all, 'platform'],
      queryFn: () => callApi('getPlatformStats'),
      staleTime: 60_000,
    }),
};
