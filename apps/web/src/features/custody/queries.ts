import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['custody'] as const;

/** How often the chain balance is read again while the wallet's page is open. */
export const CHAIN_BALANCE_POLL_MS = 15_000;

/**
 * The self-custody wallet's server data, under one root key: only public things (the chain's
 * balance at a public address). The words, keys and vault never enter the query cache.
 */
export const custodyQueries = {
  all,
  chainBalance: (customerId: number, address: string) =>
    queryOptions({
      queryKey: [...all, customerId, 'chainBalance', address],
      queryFn: () => callApi('chainBalance', { query: { address } }),
      refetchInterval: CHAIN_BALANCE_POLL_MS,
    }),
};
