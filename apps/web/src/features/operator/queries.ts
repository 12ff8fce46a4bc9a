import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['operator'] as const;

/** Who operates the platform, as staff set it (the same in every language; texts pick theirs). */
export const operatorQueries = {
  all,
  settings: () =>
    queryOptions({
      queryKey: [...all, 'settings'],
      queryFn: () => callApi('getOperator'),
      staleTime: 5 * 60_000,
    }),
};
