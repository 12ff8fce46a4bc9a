import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['priceAlerts'] as const;

/** The customer's price alerts and the service's push key, under one root key. */
export const alertQueries = {
  all,
  list: (userId: number) =>
    queryOptions({ queryKey: [...all, 'list', userId], queryFn: () => callApi('listPriceAlerts') }),
  pushKey: () =>
    queryOptions({
      queryKey: [...all, 'pushKey'],
      queryFn: () => callApi('getPushKey'),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
