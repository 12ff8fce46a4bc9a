import { featureRoutes } from '../../app/routeTypes.ts';

/** The wallet feature's routes (app/routes.ts puts every feature's in the one list). */
export const walletRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/deposit',
    title: 'deposit',
    tab: 'profile',
    view: { load: () => import('./Deposit.tsx') },
  },
  {
    path: '/profile/withdraw',
    title: 'withdraw',
    tab: 'profile',
    view: { load: () => import('./Withdraw.tsx') },
  },
  {
    path: '/profile/addresses',
    title: 'addresses',
    tab: 'profile',
    view: { load: () => import('./Addresses.tsx') },
  },
  {
    path: '/profile/deposits',
    title: 'deposits',
    tab: 'profile',
    view: { load: () => import('./Records.tsx').then((m) => ({ default: m.Deposits })) },
  },
  {
    path: '/profile/withdrawals',
    title: 'withdrawals',
    tab: 'profile',
    view: { load: () => import('./Records.tsx').then((m) => ({ default: m.Withdrawals })) },
  },
]);
