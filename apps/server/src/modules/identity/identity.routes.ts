import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';

/**
 * Calls about the logged-in customer. Sessions are resolved by the platform's session resolver
 * before a handler runs; a call that needs one answers body code 401 without it.
 */
export function identityRoutes(app: FastifyInstance): void {
  mountCall(app, calls.getUserInfo, async ({ customer }) => ({
    id: customer.userId,
    userName: customer.userName,
  }));
}
