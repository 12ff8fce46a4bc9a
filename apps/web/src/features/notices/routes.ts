import { featureRoutes } from '../../app/routeTypes.ts';

/** The notices feature's routes (app/routes.ts puts every feature's in the one list). */
export const noticesRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/notification',
    account: { order: 180 },
    title: 'notification',
    tab: 'profile',
    view: { load: () => import('./Notifications.tsx') },
  },
]);
