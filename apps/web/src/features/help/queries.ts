import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['help'] as const;

/** The help centre's reads under one root key, the reader's language in each (a change reloads them). */
export const helpQueries = {
  all,
  list: (language: Language, type: 5 | 6, category: number) =>
    queryOptions({
      queryKey: [...all, 'list', type, category, language],
      queryFn: () => callApi('listContentsByList', { params: { type, x: category } }),
      staleTime: 5 * 60_000,
    }),
  article: (language: Language, id: number) =>
    queryOptions({
      queryKey: [...all, 'article', id, language],
      queryFn: () => callApi('getContentsById', { params: { id } }),
      staleTime: 5 * 60_000,
    }),
  search: (language: Language, q: string) =>
    queryOptions({
      queryKey: [...all, 'search', q, language],
      queryFn: () => callApi('searchHelp', { query: { q } }),
      staleTime: 60_000,
    }),
};
