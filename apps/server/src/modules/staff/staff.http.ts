import { ADMIN_API_BASE, type AdminCallDefinition, Code } from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod/mini';
import { ApiError, type CallParts, envelopeOf, tokenOf, validateParts } from '../../platform/http.ts';
import type { StaffService, StaffSession } from './staff.service.ts';

export type StaffCallInput<D extends AdminCallDefinition> = CallParts<D> & {
  request: FastifyRequest;
  staff: D['roles'] extends 'public' ? null : StaffSession;
};

/**
 * The staff session of a request: the token of the Authorization header looked up among staff
 * sessions only, so a customer token is never a staff session. 401 without one; 10029 (HTTP 403)
 * when the staff member's role is not among the call's roles.
 */
export async function requireStaff(
  staff: StaffService,
  request: FastifyRequest,
  roles: readonly string[],
): Promise<StaffSession> {
  const token = tokenOf(request);
  const session = token ? await staff.resolveSession(token) : null;
  if (!session) throw new ApiError(Code.SESSION_EXPIRED);
  if (!roles.includes(session.role)) throw new ApiError(Code.FORBIDDEN);
  return session;
}

/**
 * Mounts one staff call of the contract under /swx/admin: validates its input with the contract,
 * checks the staff session and role, and shapes the answer with the call's data schema.
 */
export function mountStaffCall<D extends AdminCallDefinition>(
  app: FastifyInstance,
  staff: StaffService,
  definition: D,
  handler: (input: StaffCallInput<D>) => Promise<z.infer<D['data']>>,
): void {
  app.route({
    method: definition.method,
    url: ADMIN_API_BASE + definition.path,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const session =
        definition.roles === 'public' ? null : await requireStaff(staff, request, definition.roles);
      const input = {
        ...validateParts(definition, request),
        request,
        staff: session,
      } as StaffCallInput<D>;
      const data = definition.data.parse(await handler(input));
      return reply.send(envelopeOf(Code.OK, request.language, data));
    },
  });
}
