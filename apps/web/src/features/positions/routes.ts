import { featureRoutes } from '../../app/routeTypes.ts';

/** The trading feature's routes (app/routes.ts puts every feature's in the one list). */
export const positionsRoutes = featureRoutes(import.meta.url, [
  {
    path: '/cruuency',
    title: 'currency',
    tab: 'market',
    view: { load: () => import('./Currency.tsx') },
    firstCall: { name: 'getMarketInfo', params: { id: '?id' } },
  },
  {
    path: '/profile/orders',
    title: 'orders',
    tab: 'profile',
    view: { load: () => import('./Orders.tsx') },
  },
  {
    path: '/profile/orders/:id',
    title: 'orderDetail',
    tab: 'profile',
    view: { load: () => import('./OrderDetail.tsx') },
  },
]);
