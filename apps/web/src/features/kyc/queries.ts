import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

/** Verification and credit score carry the user and the language (server texts), like every query. */
const all = ['kyc'] as const;

export const kycQueries = {
  all,
  status: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'status', userId, language],
      queryFn: () => callApi('getIdentification'),
    }),
  creditScore: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'credit', userId, language],
      queryFn: () => callApi('getCreditScore'),
    }),
};
