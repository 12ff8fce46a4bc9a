import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { LoanApplicationPage, LoanApplicationQueue } from './LoanApplications.tsx';
import { LoanLimitRule } from './LoanLimitRule.tsx';
import { LoanPools } from './LoanPools.tsx';
import { LoanProductPage, NewLoanProduct } from './LoanProductPage.tsx';
import { LoanProducts } from './LoanProducts.tsx';
import { LoanProofPage, LoanProofQueue } from './LoanProofs.tsx';
import { LOAN_TEXT } from './loans.text.ts';
import { OverdueLoans } from './OverdueLoans.tsx';

/** Loans: products, pools, the limit rule, applications and repayment proofs to review, overdue loans. */
export const loansSections: readonly Section[] = [
  {
    label: (language) => LOAN_TEXT[language].nav.products,
    path: '/loans/products',
    roles: adminCalls.listLoanProducts.roles,
    screens: [
      { path: '/loans/products', Screen: LoanProducts },
      { path: '/loans/products/new', Screen: NewLoanProduct },
      { path: '/loans/products/:id', Screen: LoanProductPage },
    ],
  },
  {
    label: (language) => LOAN_TEXT[language].nav.pools,
    path: '/loans/pools',
    roles: adminCalls.listLoanPools.roles,
    screens: [{ path: '/loans/pools', Screen: LoanPools }],
  },
  {
    label: (language) => LOAN_TEXT[language].nav.limitRule,
    path: '/loans/limit-rule',
    roles: adminCalls.loanLimitRules.roles,
    screens: [{ path: '/loans/limit-rule', Screen: LoanLimitRule }],
  },
  {
    label: (language) => LOAN_TEXT[language].nav.applications,
    path: '/loans/applications',
    roles: adminCalls.loanApplicationQueue.roles,
    screens: [
      { path: '/loans/applications', Screen: LoanApplicationQueue },
      { path: '/loans/applications/:id', Screen: LoanApplicationPage },
    ],
  },
  {
    label: (language) => LOAN_TEXT[language].nav.proofs,
    path: '/loans/proofs',
    roles: adminCalls.loanProofQueue.roles,
    screens: [
      { path: '/loans/proofs', Screen: LoanProofQueue },
      { path: '/loans/proofs/:id', Screen: LoanProofPage },
    ],
  },
  {
    label: (language) => LOAN_TEXT[language].nav.overdue,
    path: '/loans/overdue',
    roles: adminCalls.overdueLoans.roles,
    screens: [{ path: '/loans/overdue', Screen: OverdueLoans }],
  },
];
