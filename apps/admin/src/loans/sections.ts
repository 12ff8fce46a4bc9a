import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { LoanApplicationPage, LoanApplicationQueue } from './LoanApplications.tsx';
import { LoanPools } from './LoanPools.tsx';
import { LoanProductPage, NewLoanProduct } from './LoanProductPage.tsx';
import { LoanProducts } from './LoanProducts.tsx';
import { LoanProofPage, LoanProofQueue } from './LoanProofs.tsx';
import { OverdueLoans } from './OverdueLoans.tsx';

/** Loans: products, pools, applications and repayment proofs to review, overdue loans. */
export const loansSections: readonly Section[] = [
  {
    name: 'loanProducts',
    path: '/loans/products',
    roles: adminCalls.listLoanProducts.roles,
    screens: [
      { path: '/loans/products', Screen: LoanProducts },
      { path: '/loans/products/new', Screen: NewLoanProduct },
      { path: '/loans/products/:id', Screen: LoanProductPage },
    ],
  },
  {
    name: 'loanPools',
    path: '/loans/pools',
    roles: adminCalls.listLoanPools.roles,
    screens: [{ path: '/loans/pools', Screen: LoanPools }],
  },
  {
    name: 'loanApplications',
    path: '/loans/applications',
    roles: adminCalls.loanApplicationQueue.roles,
    screens: [
      { path: '/loans/applications', Screen: LoanApplicationQueue },
      { path: '/loans/applications/:id', Screen: LoanApplicationPage },
    ],
  },
  {
    name: 'loanProofs',
    path: '/loans/proofs',
    roles: adminCalls.loanProofQueue.roles,
    screens: [
      { path: '/loans/proofs', Screen: LoanProofQueue },
      { path: '/loans/proofs/:id', Screen: LoanProofPage },
    ],
  },
  {
    name: 'loanOverdue',
    path: '/loans/overdue',
    roles: adminCalls.overdueLoans.roles,
    screens: [{ path: '/loans/overdue', Screen: OverdueLoans }],
  },
];
