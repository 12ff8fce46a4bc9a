import { featureRoutes, type RouteEntry } from '../../app/routeTypes.ts';

/** The instrument page (query: code, type, id), under either of its paths. */
const instrumentPage: Omit<RouteEntry, 'path'> = {
  title: 'currency',
  tab: 'market',
  view: { load: () => import('./Currency.tsx') },
  firstCall: { name: 'getMarketInfo', params: { id: '?id' } },
};

/** The trading feature's routes (app/routes.ts puts every feature's in the one list). */
export const positionsRoutes = featureRoutes(import.meta.url, [
  // The app's links go to /instrument; /cruuency, spec §2's path (spelt as in the product), shows
  // the same page.
  { path: '/instrument', ...instrumentPage },
  { path: '/cruuency', ...instrumentPage },
  {
    path: '/profile/orders',
    account: { order: 10 },
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
