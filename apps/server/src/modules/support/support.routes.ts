import { adminCalls, Code, calls, SUPPORT_VISITOR_HEADER, SUPPORT_WS_PATH } from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { SupportHub } from './support.hub.ts';
import type { SupportParty, SupportService } from './support.service.ts';
import type { SupportDesk } from './support.staff.ts';

/** The customer's side: the session's customer, else the visitor of the header; 401 with neither. */
async function partyOf(support: SupportService, request: FastifyRequest): Promise<SupportParty> {
  if (request.customer) return { kind: 'customer', userId: request.customer.userId };
  const header = request.headers[SUPPORT_VISITOR_HEADER];
  const visitor = typeof header === 'string' ? await support.visitorOf(header) : null;
  if (!visitor) throw new ApiError(Code.SESSION_EXPIRED);
  return visitor;
}

export function supportRoutes(
  app: FastifyInstance,
  deps: { support: SupportService; desk: SupportDesk; hub: SupportHub; staff: StaffService },
): void {
  const { support, desk, hub, staff } = deps;
  mountCall(app, calls.getSupportStatus, () => support.status());
  mountCall(app, calls.startSupportVisitor, ({ body, request }) =>
    support.startVisitor(body.email, request.ip),
  );
  mountCall(app, calls.openSupportConversation, async ({ body, request }) =>
    support.open(await partyOf(support, request), body),
  );
  mountCall(app, calls.getMySupportConversation, async ({ request }) =>
    support.latest(await partyOf(support, request)),
  );
  mountCall(app, calls.getSupportConversation, async ({ params, request }) =>
    support.history(await partyOf(support, request), params.id),
  );
  mountCall(app, calls.rateSupportConversation, async ({ params, body, request }) =>
    support.rate(await partyOf(support, request), params.id, body.rating),
  );

  mountStaffCall(app, staff, adminCalls.supportInbox, ({ staff: agent, query }) =>
    desk.inbox(agent, query.view ?? 'mine'),
  );
  mountStaffCall(app, staff, adminCalls.supportConversation, ({ params }) => desk.detail(params.id));
  mountStaffCall(app, staff, adminCalls.supportAgents, () => desk.agents());
  mountStaffCall(app, staff, adminCalls.transferSupportConversation, ({ staff: agent, params, body }) =>
    desk.transfer(agent, params.id, body.staffId),
  );
  mountStaffCall(app, staff, adminCalls.resolveSupportConversation, ({ staff: agent, params }) =>
    desk.resolve(agent, params.id),
  );
  mountStaffCall(app, staff, adminCalls.reopenSupportConversation, ({ staff: agent, params }) =>
    desk.reopen(agent, params.id),
  );
  mountStaffCall(app, staff, adminCalls.supportCannedReplies, ({ query }) =>
    desk.canned(query.language ?? 'en'),
  );

  // The chat's websocket: the first frame says who is there (platform/security.ts checks the Origin).
  app.get(SUPPORT_WS_PATH, { websocket: true }, (socket) => hub.add(socket));
}
