import type { Loader } from '../../app/routeTypes.ts';
import { featureRoutes } from '../../app/routeTypes.ts';

/** A loan screen: they share one chunk, like the earn screens. */
const loans =
  (screen: keyof typeof import('./screens.ts')): Loader =>
  () =>
    import('./screens.ts').then((m) => ({ default: m[screen] }));

/** The loans feature's routes (app/routes.ts puts every feature's in the one list). */
export const loansRoutes = featureRoutes(import.meta.url, [
  { path: '/loan', title: 'loan', tab: 'loan', tabRoot: true, view: { load: loans('Browse') } },
  { path: '/loan/borrow/:productId', title: 'loanBorrow', tab: 'loan', view: { load: loans('Borrow') } },
  {
    path: '/loan/records',
    account: { order: 130 },
    title: 'loanRecords',
    tab: 'loan',
    view: { load: loans('MyLoans') },
  },
  { path: '/loan/:id', title: 'loanDetail', tab: 'loan', view: { load: loans('LoanDetail') } },
  {
    path: '/profile/contract',
    account: { order: 140 },
    title: 'loanContract',
    tab: 'profile',
    view: { load: loans('Contracts') },
  },
  {
    path: '/profile/repayment',
    account: { order: 150 },
    title: 'loanRepayment',
    tab: 'profile',
    view: { load: loans('Repayments') },
  },
  {
    path: '/profile/credit',
    account: { order: 160 },
    title: 'creditScore',
    tab: 'profile',
    view: { load: loans('Credit') },
  },
]);
