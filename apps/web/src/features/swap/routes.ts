import { featureRoutes } from '../../app/routeTypes.ts';

/** The swap feature's routes (app/routes.ts puts every feature's in the one list). */
export const swapRoutes = featureRoutes(import.meta.url, [
  { path: '/swap', account: { order: 90 }, title: 'swap', view: { load: () => import('./Swap.tsx') } },
]);
