import type { Book } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';

const all = ['papers'] as const;

/** The statements recorded in a book, and the calendar link's state. */
export const papersQueries = {
  all,
  statements: (userId: number, book: Book) =>
    queryOptions({
      queryKey: [...all, 'statements', userId, book],
      queryFn: () => callApi('getStatements'),
    }),
  calendar: (userId: number) =>
    queryOptions({
      queryKey: [...all, 'calendar', userId],
      queryFn: () => callApi('getCalendarLink'),
    }),
};
