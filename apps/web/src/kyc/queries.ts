import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../app/api.ts';

/** Verification and credit score carry the user and the language (server texts), like every query. */
export const kycQueries = {
  status: (userId: number, language: Language) =>
    queryOptions({
      queryKey: ['kyc', 'status', userId, language],
      queryFn: () => callApi('getIdentification'),
    }),
  creditScore: (userId: number, language: Language) =>
    queryOptions({
      queryKey: ['kyc', 'credit', userId, language],
      queryFn: () => callApi('getCreditScore'),
    }),
};
