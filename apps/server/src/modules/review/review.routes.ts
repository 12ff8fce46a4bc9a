import type { ReviewCallSet } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { ReviewQueue } from './review.service.ts';

/**
 * Mounts the six staff calls of one review kind (the contract's `reviewCalls`): queue, item,
 * claim, release, approve, reject. The roles are the contract's; the queue does the rest.
 */
export function mountReview<C extends ReviewCallSet>(
  app: FastifyInstance,
  staff: StaffService,
  queue: ReviewQueue<C>,
): void {
  const calls: ReviewCallSet = queue.definition.calls;
  mountStaffCall(app, staff, calls.list, ({ staff: session, query }) =>
    queue.list(session, query.after ? Number(query.after) : null),
  );
  mountStaffCall(app, staff, calls.get, ({ staff: session, params }) => queue.get(session, params.id));
  mountStaffCall(app, staff, calls.claim, ({ staff: session, params }) => queue.claim(session, params.id));
  mountStaffCall(app, staff, calls.release, ({ staff: session, params }) =>
    queue.release(session, params.id),
  );
  mountStaffCall(app, staff, calls.approve, ({ staff: session, params }) =>
    queue.approve(session, params.id),
  );
  mountStaffCall(app, staff, calls.reject, ({ staff: session, params, body }) =>
    queue.reject(session, params.id, body.reason),
  );
}
