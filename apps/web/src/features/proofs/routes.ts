import { featureRoutes } from '../../app/routeTypes.ts';

/** Proof of liabilities beside proof of assets: public, with "verify my balance" for a signed-in customer. */
export const proofsRoutes = featureRoutes(import.meta.url, [
  { path: '/proof', title: 'proof', view: { load: () => import('./ProofPage.tsx') } },
]);
