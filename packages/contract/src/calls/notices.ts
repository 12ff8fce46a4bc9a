import { z } from 'zod/mini';
import { notice, noticeListQuery, readNoticeQuery } from '../identity.ts';
import { type CallDefinition, call } from './define.ts';

/** The customer’s notices (`modules/notices`). */
export const noticesCalls = {
  getNoticeList: call({
    method: 'GET',
    path: '/user/getNoticeList',
    summary: 'My notices, newest first (readState 0 = unread; filter with ?readState=0)',
    auth: true,
    status: 'live',
    query: noticeListQuery,
    data: z.array(notice),
  }),
  readNotice: call({
    method: 'GET',
    path: '/user/readNotice',
    summary: 'Mark one of my notices read',
    auth: true,
    status: 'live',
    query: readNoticeQuery,
    data: z.null(),
  }),
} as const satisfies Record<string, CallDefinition>;
