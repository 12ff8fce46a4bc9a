import type { Loader } from '../../app/routeTypes.ts';
import { featureRoutes } from '../../app/routeTypes.ts';

/** An earn screen: the five share one chunk (one preload list in the entry chunk for their routes). */
const earn =
  (screen: keyof typeof import('./screens.ts')): Loader =>
  () =>
    import('./screens.ts').then((m) => ({ default: m[screen] }));

/** The earn feature's routes (app/routes.ts puts every feature's in the one list). */
export const earnRoutes = featureRoutes(import.meta.url, [
  { path: '/financial', title: 'financial', tab: 'profile', view: { redirect: '/financial/cryptoInvest' } },
  {
    path: '/financial/vipInvest',
    account: { order: 110 },
    title: 'vipInvest',
    tab: 'profile',
    view: { load: earn('VipList') },
  },
  {
    path: '/financial/vipInvestDetail/:info',
    title: 'vipInvestDetail',
    tab: 'profile',
    view: { load: earn('VipDetail') },
  },
  {
    path: '/financial/cryptoInvest',
    account: { order: 100 },
    title: 'cryptoInvest',
    tab: 'profile',
    view: { load: earn('FundList') },
  },
  {
    path: '/financial/cryptoInvestDetail',
    title: 'cryptoInvestDetail',
    tab: 'profile',
    view: { load: earn('FundDetail') },
  },
  {
    path: '/financial/myInvest/:type',
    account: { order: 120, to: '/financial/myInvest/fund' },
    title: 'myInvest',
    tab: 'profile',
    view: { load: earn('MyInvest') },
  },
  { path: '/financial/*', title: 'financial', tab: 'profile', view: { redirect: '/financial/cryptoInvest' } },
]);
