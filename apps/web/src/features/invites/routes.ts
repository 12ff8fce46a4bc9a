import { featureRoutes } from '../../app/routeTypes.ts';

/** The invite feature's routes (app/routes.ts puts every feature's in the one list). */
export const invitesRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/invite',
    account: { order: 210 },
    title: 'invite',
    tab: 'profile',
    view: { load: () => import('./Invite.tsx') },
  },
  {
    // The invite link (`linkPath` of getMyInvite, `/register?invite=CODE`): the registration
    // page itself, its query kept, so the code is filled in (Register.tsx reads `invite`).
    path: '/register',
    title: 'register',
    chrome: 'pass',
    view: { load: () => import('../identity/Register.tsx') },
  },
]);
