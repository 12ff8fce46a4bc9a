import { featureRoutes } from '../../app/routeTypes.ts';

/** The price alerts' routes (app/routes.ts puts every feature's in the one list). */
export const priceAlertsRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/alerts',
    account: { order: 185 },
    title: 'priceAlerts',
    tab: 'profile',
    view: { load: () => import('./PriceAlerts.tsx') },
  },
]);
