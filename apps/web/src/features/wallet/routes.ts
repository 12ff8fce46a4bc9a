import { featureRoutes } from '../../app/routeTypes.ts';

/** The wallet feature's routes (app/routes.ts puts every feature's in the one list). */
export const walletRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/deposit',
    account: { order: 30 },
    title: 'deposit',
    tab: 'profile',
    view: { load: () => import('./Deposit.tsx') },
  },
  {
    path: '/profile/withdraw',
    account: { order: 40 },
    title: 'withdraw',
    tab: 'profile',
    view: { load: () => import('./Withdraw.tsx') },
  },
  {
    path: '/profile/addresses',
    account: { order: 50 },
    title: 'addresses',
    tab: 'profile',
    view: { load: () => import('./Addresses.tsx') },
  },
  {
    path: '/profile/deposits',
    account: { order: 70 },
    title: 'deposits',
    tab: 'profile',
    view: { load: () => import('./Records.tsx').then((m) => ({ default: m.Deposits })) },
  },
  {
    path: '/profile/withdrawals',
    account: { order: 80 },
    title: 'withdrawals',
    tab: 'profile',
    view: { load: () => import('./Records.tsx').then((m) => ({ default: m.Withdrawals })) },
  },
]);
