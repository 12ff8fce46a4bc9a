import { featureRoutes } from '../../app/routeTypes.ts';

/** The identity feature's routes (app/routes.ts puts every feature's in the one list). */
export const identityRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/password',
    title: 'changePassword',
    tab: 'profile',
    view: { load: () => import('./Password.tsx') },
  },
  {
    path: '/profile/security',
    title: 'security',
    tab: 'profile',
    view: { load: () => import('./Security.tsx') },
  },
  {
    path: '/pass/login',
    title: 'login',
    chrome: 'pass',
    view: { load: () => import('./Login.tsx') },
  },
  {
    path: '/pass/register',
    title: 'register',
    chrome: 'pass',
    view: { load: () => import('./Register.tsx') },
  },
  {
    path: '/pass/reset',
    title: 'reset',
    chrome: 'pass',
    view: { load: () => import('./Reset.tsx') },
  },
  {
    path: '/pass/lock',
    title: 'lockAccount',
    chrome: 'pass',
    view: { load: () => import('./LockAccount.tsx') },
  },
  {
    path: '/api/loginCallback/:provider',
    title: 'loginCallback',
    chrome: 'bare',
    view: { load: () => import('./LoginCallback.tsx') },
  },
]);
