import type { Loader } from '../../app/routeTypes.ts';
import { featureRoutes } from '../../app/routeTypes.ts';

/** A self-custody wallet screen: the six share one chunk, with the key libraries (never in the entry chunk). */
const custody =
  (screen: keyof typeof import('./screens.ts')): Loader =>
  () =>
    import('./screens.ts').then((m) => ({ default: m[screen] }));

/** The custody feature's routes (app/routes.ts puts every feature's in the one list). */
export const custodyRoutes = featureRoutes(import.meta.url, [
  {
    path: '/profile/wallet',
    account: { order: 60 },
    title: 'custody',
    tab: 'profile',
    view: { load: custody('Overview') },
  },
  {
    path: '/profile/wallet/create',
    title: 'custodyCreate',
    tab: 'profile',
    view: { load: custody('Create') },
  },
  {
    path: '/profile/wallet/restore',
    title: 'custodyRestore',
    tab: 'profile',
    view: { load: custody('Restore') },
  },
  {
    path: '/profile/wallet/verify',
    title: 'custodyVerify',
    tab: 'profile',
    view: { load: custody('Verify') },
  },
  {
    path: '/profile/wallet/reveal',
    title: 'custodyReveal',
    tab: 'profile',
    view: { load: custody('Reveal') },
  },
  {
    path: '/profile/wallet/withdrawal',
    title: 'custodyAdd',
    tab: 'profile',
    view: { load: custody('AddAddress') },
  },
]);
