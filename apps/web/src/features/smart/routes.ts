import type { Loader } from '../../app/routeTypes.ts';
import { featureRoutes } from '../../app/routeTypes.ts';

/** A smart trading screen: the four share one chunk. */
const smart =
  (screen: keyof typeof import('./screens.ts')): Loader =>
  () =>
    import('./screens.ts').then((m) => ({ default: m[screen] }));

/** The smart feature's routes (app/routes.ts puts every feature's in the one list). */
export const smartRoutes = featureRoutes(import.meta.url, [
  { path: '/trading', title: 'trading', tab: 'trading', tabRoot: true, view: { load: smart('Products') } },
  { path: '/trading/plans', title: 'smartPlans', tab: 'trading', view: { load: smart('Plans') } },
  { path: '/trading/plans/:id', title: 'smartPlan', tab: 'trading', view: { load: smart('Plan') } },
  {
    path: '/trading/:productId',
    title: 'smartProduct',
    tab: 'trading',
    view: { load: smart('Product') },
    firstCall: { name: 'smartProduct', params: { id: ':productId' } },
  },
]);
