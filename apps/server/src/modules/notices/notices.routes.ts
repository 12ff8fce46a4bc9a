import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { NoticesService } from './notices.service.ts';

export function noticesRoutes(app: FastifyInstance, notices: NoticesService): void {
  mountCall(app, calls.getNoticeList, ({ customer, query, request }) =>
    notices.list(customer.userId, request.language, query.readState as 0 | 1 | undefined),
  );
  mountCall(app, calls.readNotice, async ({ customer, query }) => {
    await notices.read(customer.userId, query.noticeId);
    return null;
  });
}
