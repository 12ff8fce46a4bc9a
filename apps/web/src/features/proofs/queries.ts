import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['proofs'] as const;

/** The published roots (public) and the signed-in customer's branch. */
export const proofsQueries = {
  all,
  roots: (day: string | undefined) =>
    queryOptions({
      queryKey: [...all, 'roots', day ?? 'latest'],
      queryFn: () => callApi('getProofRoots', { query: day ? { day } : {} }),
      staleTime: 5 * 60_000,
    }),
};

/** The customer's branch of a day's tree of an asset, downloaded when they ask to verify. */
export const myBranch = (day: string, asset: string) =>
  callApi('getMyProofBranch', { query: { day, asset } });
