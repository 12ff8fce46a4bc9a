import {
  adminCalls,
  Code,
  calls,
  STAFF_DUTIES,
  SUPPORT_FILE_PATH,
  SUPPORT_VISITOR_HEADER,
  SUPPORT_WS_PATH,
  uploadIdParams,
} from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, mountCall, sendCode, tokenOf } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { readFilePart, sendPrivateFile, withUploadScope } from '../uploads/uploads.routes.ts';
import type { SupportHub } from './support.hub.ts';
import { type SupportParty, type SupportService, uploadOwnerOf } from './support.service.ts';
import { agentUploads, type SupportDesk } from './support.staff.ts';

const AGENT_ROLES: readonly string[] = STAFF_DUTIES.supportChat.roles;

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

  mountStaffCall(app, staff, adminCalls.setSupportAgentLimit, ({ staff: by, params, body }) =>
    desk.setLimit(by, params.id, body.limit),
  );

  // Attachments: a customer's or visitor's, and an agent's; then served to participants only.
  withUploadScope(app, (scope) => {
    mountCall(scope, calls.uploadSupportAttachment, async ({ request }) =>
      support.upload(uploadOwnerOf(await partyOf(support, request)), (max) => readFilePart(request, max)),
    );
    mountStaffCall(scope, staff, adminCalls.uploadSupportAttachment, ({ staff: agent, request }) =>
      support.upload(agentUploads(agent.staffId), (max) => readFilePart(request, max)),
    );
  });
  app.get(SUPPORT_FILE_PATH, (request, reply) => attachmentFile(support, staff, request, reply));

  // The chat's websocket: the first frame says who is there (platform/security.ts checks the Origin).
  app.get(SUPPORT_WS_PATH, { websocket: true }, (socket) => hub.add(socket));
}

/**
 * An attachment for a participant of its conversation: the customer (session) or visitor (header)
 * who owns it, or an agent of the duty (staff token; each view audited). Anyone else, and any id
 * not theirs, finds nothing (10028); nobody at all is 401.
 */
async function attachmentFile(
  support: SupportService,
  staff: StaffService,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const parsed = uploadIdParams.safeParse(request.params);
  const id = parsed.success ? parsed.data.id : null;
  const header = request.headers[SUPPORT_VISITOR_HEADER];
  const party: SupportParty | null = request.customer
    ? { kind: 'customer', userId: request.customer.userId }
    : typeof header === 'string'
      ? await support.visitorOf(header)
      : null;
  const token = party ? null : tokenOf(request);
  const session = token ? await staff.resolveSession(token) : null;
  if (!party && !session) return sendCode(reply, request, Code.SESSION_EXPIRED);
  const agent = session && AGENT_ROLES.includes(session.role);
  const file = id && (party || agent) ? await support.attachment(party ?? 'agent', id) : null;
  if (!file) return sendCode(reply, request, Code.NOT_FOUND);
  if (session)
    await staff.record(session, 'upload.viewed', `upload:${file.upload.id}`, {
      purpose: file.upload.purpose,
      conversation: file.upload.usedFor,
    });
  return sendPrivateFile(reply, file);
}
