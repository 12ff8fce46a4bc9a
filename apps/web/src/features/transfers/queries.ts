import type { Deposit } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['wallet'] as const;

/** How often the deposit list is read again while a deposit is confirming on chain. */
export const CONFIRMING_POLL_MS = 4_000;
/** And otherwise, so a deposit sent while the page is open shows up by itself. */
export const DEPOSITS_POLL_MS = 15_000;

const confirming = (deposits: readonly Deposit[] | undefined) =>
  deposits?.some((d) => d.state === 'confirming' || d.state === 'credited') ?? false;

/**
 * Deposits and withdrawals (the live book only), under one root key: a proof sent, an address
 * added or removed, a withdrawal made invalidates `walletQueries.all`. Each key carries the user,
 * so another login never sees the last one's data. The server's wallet module, read by the wallet's
 * screens and by the self-custody wallet (which adds its address to the address book).
 */
export const walletQueries = {
  all,
  networks: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'networks'],
      queryFn: () => callApi('listNetworks'),
      staleTime: 60_000,
    }),
  depositAddress: (userId: number, network: string) =>
    queryOptions({
      queryKey: [...all, userId, 'depositAddress', network],
      queryFn: () => callApi('getDepositAddress', { query: { network } }),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** My deposits: read again every few seconds while one is still confirming or locked, else now and then. */
  deposits: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'deposits'],
      queryFn: () => callApi('listRecharge'),
      refetchInterval: (query) => (confirming(query.state.data) ? CONFIRMING_POLL_MS : DEPOSITS_POLL_MS),
    }),
  withdrawals: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'withdrawals'],
      queryFn: () => callApi('listWithdrwal'),
    }),
  addresses: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'addresses'],
      queryFn: () => callApi('listWithdrawalAddresses'),
    }),
  limits: (userId: number) =>
    queryOptions({
      queryKey: [...all, userId, 'limits'],
      queryFn: () => callApi('withdrawalLimits'),
    }),
};
