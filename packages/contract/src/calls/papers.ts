import { z } from 'zod/mini';
import { calendarLinkData, statementsData } from '../papers.ts';
import { type CallDefinition, call } from './define.ts';

/** Papers (`modules/papers`): statements made, and the obligations calendar's private link. */
export const papersCalls = {
  getStatements: call({
    method: 'GET',
    path: '/papers/statements',
    summary:
      'The statements recorded for me in this book (made on the first of each month, or when I downloaded one), newest first, with their figures',
    auth: true,
    status: 'live',
    data: statementsData,
  }),
  getCalendarLink: call({
    method: 'GET',
    path: '/papers/calendar',
    summary:
      'Whether my obligations calendar link is active, and since when (its address is shown only when made)',
    auth: true,
    status: 'live',
    data: calendarLinkData,
  }),
  rotateCalendarLink: call({
    method: 'POST',
    path: '/papers/calendar/rotate',
    summary:
      'Make a new private calendar link (any earlier one stops working at once); the answer carries its address, shown this once',
    auth: true,
    status: 'live',
    body: z.object({}),
    data: calendarLinkData,
  }),
  revokeCalendarLink: call({
    method: 'POST',
    path: '/papers/calendar/revoke',
    summary: 'Revoke my calendar link: the feed answers nothing from now on',
    auth: true,
    status: 'live',
    body: z.object({}),
    data: calendarLinkData,
  }),
} as const satisfies Record<string, CallDefinition>;
