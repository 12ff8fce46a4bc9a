import { featureRoutes } from '../../app/routeTypes.ts';

/** The account feature's routes (app/routes.ts puts every feature's in the one list). */
export const accountRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile',
    title: 'profile',
    tab: 'profile',
    tabRoot: true,
    view: { load: () => import('./Profile.tsx') },
  },
  {
    path: '/profile/settings',
    account: { order: 190 },
    title: 'settings',
    tab: 'profile',
    view: { load: () => import('./Settings.tsx') },
  },
  {
    path: '/profile/language',
    title: 'changeLanguage',
    tab: 'profile',
    view: { load: () => import('./Language.tsx') },
  },
]);
