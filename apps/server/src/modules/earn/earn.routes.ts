import { randomUUID } from 'node:crypto';
import { adminCalls, Code, calls, type earnProofReviewCalls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountReview } from '../review/review.routes.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { EarnService } from './earn.service.ts';

export function earnRoutes(
  app: FastifyInstance,
  earn: EarnService,
  staff: StaffService,
  proofs: ReviewQueue<typeof earnProofReviewCalls>,
): void {
  customerRoutes(app, earn);
  staffRoutes(app, earn, staff);
  mountReview(app, staff, proofs);
}

/** Customer calls, all in the request's book; an investment of another customer or book is 10028. */
function customerRoutes(app: FastifyInstance, earn: EarnService): void {
  mountCall(app, calls.vipProjects, ({ request }) => earn.products(request.book, 'vip'));
  mountCall(app, calls.fundItems, ({ request, query }) => earn.products(request.book, 'fund', query));
  mountCall(app, calls.earnProduct, ({ request, params }) => earn.product(request.book, params.id));
  mountCall(app, calls.fundPrice, ({ query }) => earn.price(query.id));
  mountCall(app, calls.earnQuote, ({ customer, body, request }) =>
    earn.quote(request.book, customer.userId, body),
  );
  mountCall(
    app,
    calls.fundApply,
    ({ customer, body, request }) => earn.apply(request.book, customer.userId, body, 'fund'),
    { successCode: Code.PURCHASE_SUCCESSFUL },
  );
  mountCall(
    app,
    calls.vipInvest,
    ({ customer, body, request }) => earn.apply(request.book, customer.userId, body, 'vip'),
    { successCode: Code.PURCHASE_SUCCESSFUL },
  );
  mountCall(
    app,
    calls.fundApplyWithProof,
    ({ customer, body, request }) => earn.applyWithProof(request.book, customer.userId, body),
    { successCode: Code.SUBMITTED_FOR_REVIEW },
  );
  mountCall(app, calls.fundUserProjects, ({ customer, query, request }) =>
    earn.investments(request.book, customer.userId, query),
  );
  mountCall(app, calls.vipUserProjects, ({ customer, query, request }) =>
    earn.investments(request.book, customer.userId, { ...query, itemType: 'vip' }),
  );
  mountCall(app, calls.earnInvestment, ({ customer, params, request }) =>
    earn.investment(request.book, customer.userId, params.id),
  );
  mountCall(app, calls.myInvestment, ({ customer, query, request }) =>
    earn.summary(request.book, customer.userId, query.itemType ?? null),
  );
  mountCall(app, calls.fundWallet, ({ customer, request }) => earn.wallet(request.book, customer.userId));
  mountCall(app, calls.earnRedeemQuote, ({ customer, body, request }) =>
    earn.redeemQuote(request.book, customer.userId, body.id),
  );
  mountCall(
    app,
    calls.fundRedeem,
    ({ customer, body, request }) => earn.redeem(request.book, customer.userId, body, 'fund'),
    { successCode: Code.OPERATION_SUCCESSFUL },
  );
  mountCall(
    app,
    calls.vipRedeem,
    ({ customer, body, request }) => earn.redeem(request.book, customer.userId, body, 'vip'),
    { successCode: Code.OPERATION_SUCCESSFUL },
  );
}

/** Staff calls: products and reserve funding (the payment-proof queue: earn.review.ts, mounted by earnRoutes). */
function staffRoutes(app: FastifyInstance, earn: EarnService, staff: StaffService): void {
  mountStaffCall(app, staff, adminCalls.listEarnProducts, async ({ staff: session }) => {
    await staff.record(session, 'earn.products.viewed', 'earn', {});
    return earn.adminList();
  });
  mountStaffCall(app, staff, adminCalls.createEarnProduct, ({ staff: session, body }) =>
    earn.createProduct(`staff:${session.staffId}`, body),
  );
  mountStaffCall(app, staff, adminCalls.updateEarnProduct, ({ staff: session, body }) =>
    earn.updateProduct(`staff:${session.staffId}`, body),
  );
  mountStaffCall(app, staff, adminCalls.fundEarnReserve, ({ staff: session, body }) =>
    earn.fundReserve(
      `staff:${session.staffId}`,
      body,
      `earn-fund:${session.staffId}:${body.requestId ?? randomUUID()}`,
    ),
  );
}
