import {
  CALENDAR_FEED_PATH,
  Code,
  CUSTOMER_API_BASE,
  calendarTokenParams,
  calls,
  STATEMENT_PATH,
  statementQuery,
  TAX_EXPORT_PATH,
  taxExportQuery,
} from '@swx/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mountCall, sendCode } from '../../platform/http.ts';
import type { PaperFile, PapersService } from './papers.service.ts';

const sendFile = (reply: FastifyReply, file: PaperFile) =>
  reply
    .header('content-type', file.contentType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(Buffer.from(file.bytes));

/**
 * Statements and the tax export (files, with the session, in the request's book and language),
 * the calendar link's calls, and the feed (public: its token is the key; any other answers 404).
 */
export function papersRoutes(app: FastifyInstance, papers: PapersService): void {
  mountCall(app, calls.getStatements, async ({ customer, request }) => ({
    statements: await papers.statements(request.book, customer.userId),
  }));
  mountCall(app, calls.getCalendarLink, ({ customer }) => papers.calendarLink(customer.userId));
  mountCall(app, calls.rotateCalendarLink, ({ customer, request }) =>
    papers.rotateCalendarLink(customer.userId, request.language),
  );
  mountCall(app, calls.revokeCalendarLink, ({ customer }) => papers.revokeCalendarLink(customer.userId));

  app.get(CUSTOMER_API_BASE + STATEMENT_PATH, async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const parsed = statementQuery.safeParse(request.query);
    if (!parsed.success || !papers.validPeriod(parsed.data.from, parsed.data.to))
      return sendCode(reply, request, Code.INVALID_INPUT);
    const file = await papers.statementFile(
      request.book,
      request.customer.userId,
      parsed.data,
      request.language,
    );
    return sendFile(reply, file);
  });

  app.get(CUSTOMER_API_BASE + TAX_EXPORT_PATH, async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const parsed = taxExportQuery.safeParse(request.query);
    if (!parsed.success) return sendCode(reply, request, Code.INVALID_INPUT);
    const file = await papers.taxExport(
      request.book,
      request.customer.userId,
      parsed.data.year,
      request.language,
    );
    return sendFile(reply, file);
  });

  app.get(CUSTOMER_API_BASE + CALENDAR_FEED_PATH, async (request, reply) => {
    const parsed = calendarTokenParams.safeParse(request.params);
    const feed = parsed.success ? await papers.calendarFeed(parsed.data.token.slice(0, -4)) : null;
    if (feed === null) return reply.code(404).header('cache-control', 'no-store').send();
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .send(feed);
  });
}
