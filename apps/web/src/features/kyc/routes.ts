import { featureRoutes } from '../../app/routeTypes.ts';

/** The kyc feature's routes (app/routes.ts puts every feature's in the one list). */
export const kycRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/verification',
    account: { order: 200 },
    title: 'verification',
    tab: 'profile',
    view: { load: () => import('./Verification.tsx') },
  },
]);
