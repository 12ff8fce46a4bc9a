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
  /** What follows an approval outside its transaction (e.g. a loan's booking after its payout); a job retries it. */
  options: { afterApprove?: (id: number) => Promise<void> } = {},
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
  mountStaffCall(app, staff, calls.approve, async ({ staff: session, params }) => {
    const item = await queue.approve(session, params.id);
    await options.afterApprove?.(params.id);
    return item;
  });
  mountStaffCall(app, staff, calls.reject, ({ staff: session, params, body }) =>
    queue.reject(session, params.id, body.reason),
  );
}
