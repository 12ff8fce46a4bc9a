import type { Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

/** Poll interval of spec §9. */
export const NOTICE_POLL_MS = 10_000;

const all = ['notices'] as const;

/**
 * Notices under one root key: reading one invalidates `noticeQueries.all`. The server writes each
 * notice in the request's language, so the language in the key refetches them in a new one.
 */
export const noticeQueries = {
  all,
  list: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'all', userId, language],
      queryFn: () => callApi('getNoticeList'),
    }),
  unread: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'unread', userId, language],
      queryFn: () => callApi('getNoticeList', { query: { readState: 0 } }),
      refetchInterval: NOTICE_POLL_MS,
    }),
};
