import { contentListId, type Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['content'] as const;

/** Content pages under one root key; the language is part of each key, so a language change reloads them. */
export const contentQueries = {
  all,
  footer: (language: Language) =>
    queryOptions({
      queryKey: [...all, 'footer', language],
      queryFn: () => callApi('listContentsByList', { params: { type: 4, x: contentListId(language) } }),
      staleTime: 10 * 60_000,
    }),
  byType: (language: Language, type: 1 | 2 | 3) =>
    queryOptions({
      queryKey: [...all, 'type', type, language],
      queryFn: () => callApi('listContents', { params: { type } }),
      staleTime: 10 * 60_000,
    }),
  detail: (language: Language, id: number) =>
    queryOptions({
      queryKey: [...all, 'detail', id, language],
      queryFn: () => callApi('getContentsById', { params: { id } }),
      staleTime: 10 * 60_000,
    }),
};
