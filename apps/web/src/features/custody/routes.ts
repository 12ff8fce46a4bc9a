import { featureRoutes } from '../../app/routeTypes.ts';

/**
 * The custody feature's routes (app/routes.ts puts every feature's in the one list). Each screen is
 * a chunk of its own (what they share is split out by the build), and none holds the key code:
 * keys.ts (elliptic curve, BIP-32) is imported when a screen derives or signs.
 */
export const custodyRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/wallet',
    account: { order: 60 },
    title: 'custody',
    tab: 'profile',
    view: { load: () => import('./Overview.tsx') },
  },
  {
    path: '/profile/wallet/create',
    title: 'custodyCreate',
    tab: 'profile',
    view: { load: () => import('./Create.tsx') },
  },
  {
    path: '/profile/wallet/restore',
    title: 'custodyRestore',
    tab: 'profile',
    view: { load: () => import('./Restore.tsx') },
  },
  {
    path: '/profile/wallet/verify',
    title: 'custodyVerify',
    tab: 'profile',
    view: { load: () => import('./Verify.tsx') },
  },
  {
    path: '/profile/wallet/reveal',
    title: 'custodyReveal',
    tab: 'profile',
    view: { load: () => import('./Reveal.tsx') },
  },
  {
    path: '/profile/wallet/withdrawal',
    title: 'custodyAdd',
    tab: 'profile',
    view: { load: () => import('./AddAddress.tsx') },
  },
]);
