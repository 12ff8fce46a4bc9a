/**
 * The loan screens, one chunk: the routes load it through one import (routes.ts `loans`), so the
 * entry chunk carries one preload list for the loan routes rather than one per route.
 */
export { default as Borrow } from './Borrow.tsx';
export { default as Browse } from './Browse.tsx';
export { default as LoanDetail } from './LoanDetail.tsx';
export { default as MyLoans } from './MyLoans.tsx';
export { Contracts, Credit, Repayments } from './ProfileEntries.tsx';
