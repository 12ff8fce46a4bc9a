import { featureRoutes } from '../../app/routeTypes.ts';

/** The market feature's routes (app/routes.ts puts every feature's in the one list). */
export const marketRoutes = featureRoutes(import.meta.url, [
  {
    path: '/market',
    title: 'market',
    tab: 'market',
    tabRoot: true,
    view: { load: () => import('./Market.tsx') },
  },
]);
