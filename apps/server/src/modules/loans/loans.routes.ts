import { randomUUID } from 'node:crypto';
import {
  ADMIN_API_BASE,
  adminCalls,
  Code,
  CUSTOMER_API_BASE,
  calls,
  LOAN_AGREEMENT_ADMIN_PATH,
  LOAN_AGREEMENT_PATH,
  LOAN_READERS,
  type loanApplicationReviewCalls,
  loanIdParams,
  type loanProofReviewCalls,
} from '@swx/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mountCall, sendCode } from '../../platform/http.ts';
import { mountReview } from '../review/review.routes.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import { mountStaffCall, requireStaff } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { LoansService } from './loans.service.ts';

const sendPdf = (reply: FastifyReply, id: number, bytes: Uint8Array) =>
  reply
    .header('content-type', 'application/pdf')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="loan-agreement-${id}.pdf"`)
    .send(Buffer.from(bytes));

type LoanReviews = {
  applications: ReviewQueue<typeof loanApplicationReviewCalls>;
  proofs: ReviewQueue<typeof loanProofReviewCalls>;
};

export function loansRoutes(
  app: FastifyInstance,
  loans: LoansService,
  staff: StaffService,
  reviews: LoanReviews,
): void {
  customerRoutes(app, loans);
  staffRoutes(app, loans, staff, reviews);
}

function customerRoutes(app: FastifyInstance, loans: LoansService): void {
  // Customer calls; a loan of another customer (or asked in the demo book) is 10028.
  mountCall(app, calls.loanProducts, ({ customer }) => loans.products(customer.userId));
  mountCall(app, calls.loanQuote, ({ customer, body, request }) =>
    loans.quote(request.book, customer.userId, body, request.language),
  );
  mountCall(
    app,
    calls.loan,
    ({ customer, body, request }) => loans.apply(request.book, customer.userId, body),
    {
      successCode: Code.SUBMITTED_FOR_REVIEW,
    },
  );
  mountCall(app, calls.listLoanRecord, ({ customer, query, request }) =>
    loans.loans(request.book, customer.userId, query.state),
  );
  mountCall(app, calls.loanDetail, ({ customer, params, request }) =>
    loans.detail(request.book, customer.userId, params.id),
  );
  mountCall(app, calls.loanPayoff, ({ customer, body, request }) =>
    loans.payoff(request.book, customer.userId, body.loanId),
  );
  mountCall(
    app,
    calls.completeLoan,
    ({ customer, body, request }) => loans.repay(request.book, customer.userId, body),
    {
      successCode: Code.OPERATION_SUCCESSFUL,
    },
  );
  mountCall(
    app,
    calls.loanWithdraw,
    ({ customer, body, request }) => loans.withdraw(request.book, customer.userId, body),
    {
      successCode: Code.OPERATION_SUCCESSFUL,
    },
  );
  mountCall(
    app,
    calls.loanRepayProof,
    ({ customer, body, request }) => loans.repayWithProof(request.book, customer.userId, body),
    { successCode: Code.SUBMITTED_FOR_REVIEW },
  );
  // The signed agreement: its owner only (anyone else finds nothing; no session is 401).
  app.get(CUSTOMER_API_BASE + LOAN_AGREEMENT_PATH, async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const parsed = loanIdParams.safeParse(request.params);
    const bytes = parsed.success
      ? await loans.agreementForOwner(request.customer.userId, parsed.data.id)
      : null;
    if (!parsed.success || !bytes) return sendCode(reply, request, Code.NOT_FOUND);
    return sendPdf(reply, parsed.data.id, bytes);
  });
}

function staffRoutes(
  app: FastifyInstance,
  loans: LoansService,
  staff: StaffService,
  reviews: LoanReviews,
): void {
  // Staff: products, pools, overdue loans, the two review queues and the agreement (audited).
  mountStaffCall(app, staff, adminCalls.listLoanProducts, () => loans.adminProducts());
  mountStaffCall(app, staff, adminCalls.createLoanProduct, ({ staff: session, body }) =>
    loans.createProduct(`staff:${session.staffId}`, body),
  );
  mountStaffCall(app, staff, adminCalls.updateLoanProduct, ({ staff: session, body }) =>
    loans.updateProduct(`staff:${session.staffId}`, body),
  );
  // The limit rule: one admin proposes, another approves (audited).
  const refs = (ids: number[]) => staff.refsOf(ids);
  mountStaffCall(app, staff, adminCalls.loanLimitRules, () => loans.limitSettings(refs));
  mountStaffCall(app, staff, adminCalls.proposeLoanLimitRule, ({ staff: session, body }) =>
    loans.proposeLimitRule(session.staffId, body, refs),
  );
  mountStaffCall(app, staff, adminCalls.approveLoanLimitRule, ({ staff: session, params: p }) =>
    loans.decideLimitRule(session.staffId, p.id, 'approved', refs),
  );
  mountStaffCall(app, staff, adminCalls.rejectLoanLimitRule, ({ staff: session, params: p }) =>
    loans.decideLimitRule(session.staffId, p.id, 'rejected', refs),
  );
  mountStaffCall(app, staff, adminCalls.listLoanPools, () => loans.pools());
  mountStaffCall(app, staff, adminCalls.fundLoanPool, ({ staff: session, body }) =>
    loans.fundPool(
      `staff:${session.staffId}`,
      body,
      `loan-pool:${session.staffId}:${body.requestId ?? randomUUID()}`,
    ),
  );
  mountStaffCall(app, staff, adminCalls.overdueLoans, async ({ staff: session }) => {
    await staff.record(session, 'loan.overdue.viewed', 'loans', {});
    return loans.overdue();
  });
  mountReview(app, staff, reviews.applications, {
    afterApprove: async (id) => {
      const loan = await loans.loanRow(id);
      if (loan) await loans.book(loan);
    },
  });
  mountReview(app, staff, reviews.proofs, {
    afterApprove: async () => {
      await loans.applyProofs();
    },
  });
  app.get(ADMIN_API_BASE + LOAN_AGREEMENT_ADMIN_PATH, async (request, reply) => {
    const session = await requireStaff(staff, request, LOAN_READERS);
    const parsed = loanIdParams.safeParse(request.params);
    const file = parsed.success ? await loans.agreementForStaff(parsed.data.id) : null;
    if (!parsed.success || !file) return sendCode(reply, request, Code.NOT_FOUND);
    await staff.record(session, 'loan.agreement.viewed', `loan:${parsed.data.id}`, { sha256: file.sha256 });
    return sendPdf(reply, parsed.data.id, file.bytes);
  });
}
