import { featureRoutes } from '../../app/routeTypes.ts';

/** The ledger feature's routes (app/routes.ts puts every feature's in the one list). */
export const ledgerRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/balance',
    account: { order: 20 },
    title: 'balance',
    tab: 'profile',
    view: { load: () => import('./Balance.tsx') },
  },
  {
    path: '/profile/transactions',
    account: { order: 170 },
    title: 'transactions',
    tab: 'profile',
    view: { load: () => import('./Transactions.tsx') },
  },
]);
