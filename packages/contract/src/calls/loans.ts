import { z } from 'zod/mini';
import {
  listLoanQuery,
  loanApplyBody,
  loanDetail,
  loanIdBody,
  loanIdParams,
  loanPayoff,
  loanProductsData,
  loanQuote,
  loanQuoteBody,
  loanRecord,
  loanRepayBody,
  loanRepayment,
  loanRepayProofBody,
} from '../loans.ts';
import { type CallDefinition, call } from './define.ts';

/**
 * Loans (`modules/loans`): the spec names `user/loan` (apply), `listLoanRecord` and `completeLoan`
 * (repay); products, quote, detail, payoff, repayment by proof and withdrawal are ours. Live book
 * only: in the demo book quote, apply and repay answer 10043. The signed agreement is a PDF at
 * `LOAN_AGREEMENT_PATH` (owner only; not a JSON call).
 */
export const loansCalls = {
  loanProducts: call({
    method: 'GET',
    path: '/user/loan/products',
    summary: 'Loan products with my limit (from identity verification and credit score) and what raises it',
    auth: true,
    status: 'live',
    data: loanProductsData,
  }),
  loanQuote: call({
    method: 'POST',
    path: '/user/loan/quote',
    summary:
      'The information sheet of a loan: amount, term, daily rate, interest-free days, total interest, total payable, due date and repayment, APR (one decimal), late cost, early repayment without fee, 14-day withdrawal, and the agreement to sign; 10022 without verified identity, 10023 a term not offered, 10013 an amount outside the product or my limit, 10043 demo book',
    auth: true,
    status: 'live',
    body: loanQuoteBody,
    data: loanQuote,
  }),
  loan: call({
    method: 'POST',
    path: '/user/loan',
    summary:
      'Apply at a quote with the drawn signature (upload purpose loan_signature) and the agreement accepted: 20001, queued for staff review; 10022, 10024 a loan already in progress, 10043',
    auth: true,
    status: 'live',
    body: loanApplyBody,
    data: loanRecord,
  }),
  listLoanRecord: call({
    method: 'GET',
    path: '/user/listLoanRecord',
    summary: 'My loans, newest first',
    auth: true,
    status: 'live',
    query: listLoanQuery,
    data: z.array(loanRecord),
  }),
  loanDetail: call({
    method: 'GET',
    path: '/user/loan/:id',
    summary: 'One of my loans with its schedule, daily accruals and repayments; another customer’s is 10028',
    auth: true,
    status: 'live',
    params: loanIdParams,
    data: loanDetail,
  }),
  loanPayoff: call({
    method: 'POST',
    path: '/user/loan/payoff',
    summary:
      'What repaying today costs (principal, interest of past days, late cost; no future interest), the balance available and the repayment addresses',
    auth: true,
    status: 'live',
    body: loanIdBody,
    data: loanPayoff,
  }),
  completeLoan: call({
    method: 'POST',
    path: '/user/completeLoan',
    summary:
      'Repay from the available balance, in full (today’s payoff) or in part, allocated late cost, then interest, then principal; 10011',
    auth: true,
    status: 'live',
    body: loanRepayBody,
    data: loanDetail,
  }),
  loanRepayProof: call({
    method: 'POST',
    path: '/user/loan/repayProof',
    summary:
      'Repay by a transfer to a repayment address with a proof (upload purpose loan_repayment_proof): 20001, staff review it; 10021 an address that is not ours',
    auth: true,
    status: 'live',
    body: loanRepayProofBody,
    data: loanRepayment,
  }),
  loanWithdraw: call({
    method: 'POST',
    path: '/user/loan/withdraw',
    summary:
      'Withdraw from the agreement within 14 days of the payout: repay today’s payoff from the balance (no fee); 10011, 10023 after the 14 days',
    auth: true,
    status: 'live',
    body: z.object({ loanId: z.int().check(z.minimum(1)), requestId: loanRepayBody.shape.requestId }),
    data: loanDetail,
  }),
} as const satisfies Record<string, CallDefinition>;
