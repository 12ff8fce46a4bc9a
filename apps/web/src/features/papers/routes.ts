import { featureRoutes } from '../../app/routeTypes.ts';

/** Papers a customer keeps: statements, the tax export and the obligations calendar. */
export const papersRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/papers',
    account: { order: 175 },
    title: 'papers',
    tab: 'profile',
    view: { load: () => import('./PapersPage.tsx') },
  },
]);
