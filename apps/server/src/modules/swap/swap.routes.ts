import { adminCalls, Code, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { SwapService } from './swap.service.ts';

export function swapRoutes(app: FastifyInstance, swap: SwapService, staff: StaffService): void {
  // Customer calls, in the request's book; the pairs are public.
  mountCall(app, calls.instantExchangeItem, () => swap.pairs());
  mountCall(app, calls.swapQuote, ({ customer, body, request }) =>
    swap.quote(request.book, customer.userId, body),
  );
  mountCall(
    app,
    calls.instantExchange,
    ({ customer, body, request }) => swap.commit(request.book, customer.userId, body),
    { successCode: Code.OPERATION_SUCCESSFUL },
  );
  mountCall(app, calls.swapHistory, ({ customer, query, request }) =>
    swap.history(request.book, customer.userId, query.before),
  );

  // Staff calls: the pairs' settings (a change is audited with it).
  mountStaffCall(app, staff, adminCalls.listSwapPairs, async ({ staff: session }) => {
    await staff.record(session, 'swap.pairs.viewed', 'swap', {});
    return swap.adminPairs();
  });
  mountStaffCall(app, staff, adminCalls.updateSwapPair, ({ staff: session, body }) =>
    swap.updatePair(session.staffId, body),
  );
}
