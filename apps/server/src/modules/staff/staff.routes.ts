import {
  ADMIN_API_BASE,
  ADMIN_OPENAPI_PATH,
  API_VERSION,
  adminCalls,
  buildStaffOpenApi,
  STAFF_ROLES,
} from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffAuditLog } from './staff.audit.ts';
import { mountStaffCall, requireStaff } from './staff.http.ts';
import type { StaffClient, StaffService } from './staff.service.ts';

const clientOf = (request: FastifyRequest): StaffClient => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

/** The staff API under /swx/admin: sign-in with TOTP, staff accounts, the audit log, its OpenAPI document. */
export function staffRoutes(app: FastifyInstance, staff: StaffService, auditLog: StaffAuditLog): void {
  mountStaffCall(app, staff, adminCalls.signIn, ({ body, request }) => staff.signIn(body, clientOf(request)));
  mountStaffCall(app, staff, adminCalls.enrol, ({ body, request }) => staff.enrol(body, clientOf(request)));
  mountStaffCall(app, staff, adminCalls.verifyCode, ({ body, request }) =>
    staff.verifyCode(body, clientOf(request)),
  );
  mountStaffCall(app, staff, adminCalls.signOut, async ({ staff: session }) => {
    await staff.signOut(session);
    return null;
  });
  mountStaffCall(app, staff, adminCalls.me, async ({ staff: session }) => ({
    id: session.staffId,
    email: session.email,
    role: session.role,
  }));

  mountStaffCall(app, staff, adminCalls.listStaff, ({ staff: session }) => staff.list(session));
  mountStaffCall(app, staff, adminCalls.createStaff, ({ staff: session, body }) =>
    staff.create(body, session),
  );
  mountStaffCall(app, staff, adminCalls.updateStaff, ({ staff: session, params, body }) =>
    staff.update(session, params.id, body),
  );
  mountStaffCall(app, staff, adminCalls.resetStaffTotp, ({ staff: session, params }) =>
    staff.resetTotp(session, params.id),
  );

  mountStaffCall(app, staff, adminCalls.auditLog, ({ staff: session, query }) =>
    auditLog.search(session, query),
  );
  mountStaffCall(app, staff, adminCalls.verifyAudit, ({ staff: session }) => auditLog.verify(session));

  // The staff API's OpenAPI document (built from `adminCalls` on first read): any signed-in staff
  // member; anyone else the envelope's refusal, as on every staff call.
  let document: Record<string, unknown> | null = null;
  app.get(ADMIN_API_BASE + ADMIN_OPENAPI_PATH, async (request) => {
    await requireStaff(staff, request, STAFF_ROLES);
    document ??= buildStaffOpenApi(API_VERSION);
    return document;
  });
}
