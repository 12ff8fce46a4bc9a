import { featureRoutes } from '../../app/routeTypes.ts';

/** The content feature's routes (app/routes.ts puts every feature's in the one list). */
export const contentRoutes = featureRoutes(import.meta.url, [
  {
    path: '/detail',
    title: 'detail',
    view: { load: () => import('./Detail.tsx') },
    firstCall: { name: 'getContentsById', params: { id: '?id' } },
  },
  {
    path: '/introduction',
    title: 'introduction',
    view: { load: () => import('./Introduction.tsx') },
  },
]);
