/**
 * The loans' plain facts, no schema (loans.ts builds its schemas from them): a module of its own so
 * that a loan screen reads them without building every loan schema when it loads (the customer
 * app puts it in a chunk of its own, vite.config.ts).
 */

/**
 * pending: waiting for staff review; repaying: paid out, not yet repaid; repaid: nothing owed;
 * expired: the due date passed with money owed (overdue; only the stated late cost accrues);
 * rejected: staff refused the application (nothing was paid out); withdrawn: repaid within the
 * 14-day right of withdrawal.
 */
export const LOAN_STATES = ['pending', 'repaying', 'repaid', 'expired', 'rejected', 'withdrawn'] as const;
export type LoanState = (typeof LOAN_STATES)[number];

/** The owner's signed agreement: GET answers the PDF (another customer: 10028). */
export const LOAN_AGREEMENT_PATH = '/user/loan/:id/agreement.pdf';
