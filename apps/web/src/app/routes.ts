import { matchRoutes } from 'react-router';
import { accountRoutes } from '../features/account/routes.ts';
import { contentRoutes } from '../features/content/routes.ts';
import { custodyRoutes } from '../features/custody/routes.ts';
import { earnRoutes } from '../features/earn/routes.ts';
import { helpRoutes } from '../features/help/routes.ts';
import { identityRoutes } from '../features/identity/routes.ts';
import { invitesRoutes } from '../features/invites/routes.ts';
import { kycRoutes } from '../features/kyc/routes.ts';
import { ledgerRoutes } from '../features/ledger/routes.ts';
import { loansRoutes } from '../features/loans/routes.ts';
import { marketRoutes } from '../features/market/routes.ts';
import { nftRoutes } from '../features/nft/routes.ts';
import { noticesRoutes } from '../features/notices/routes.ts';
import { papersRoutes } from '../features/papers/routes.ts';
import { positionsRoutes } from '../features/positions/routes.ts';
import { priceAlertsRoutes } from '../features/pricealerts/routes.ts';
import { proofsRoutes } from '../features/proofs/routes.ts';
import { smartRoutes } from '../features/smart/routes.ts';
import { swapRoutes } from '../features/swap/routes.ts';
import { walletRoutes } from '../features/wallet/routes.ts';
import type { RouteEntry, TabKey } from './routeTypes.ts';

export type { Loader, RouteEntry, RouteView, TabKey } from './routeTypes.ts';

/** The shell of the `pass` pages (login, register, reset): a chunk of its own, loaded with them. */
export const loadPassShell = () => import('../shell/PassShell.tsx');

/**
 * The one route list (spec §2), built from every feature's `routes.ts`: a new screen is one entry
 * in its feature's file, a new feature one line here. The router is built from it (App.tsx), and
 * so is everything the shells know of a route: its title, the tab it belongs to, whether it is a
 * tab root (no back button; in the top nav and the tab bar), which chrome it hides, and which
 * routes are pages "opening soon". The tab roots come in the tabs' order: home, market, smart
 * trading, loans, NFTs, profile.
 */
export const ROUTES: readonly RouteEntry[] = [
  { path: '/', title: 'home', tab: 'home', tabRoot: true, view: 'home' },
  ...marketRoutes,
  ...smartRoutes,
  ...loansRoutes,
  ...nftRoutes,
  ...accountRoutes,
  ...positionsRoutes,
  ...ledgerRoutes,
  ...noticesRoutes,
  ...priceAlertsRoutes,
  ...identityRoutes,
  ...kycRoutes,
  ...walletRoutes,
  ...custodyRoutes,
  ...invitesRoutes,
  ...contentRoutes,
  ...helpRoutes,
  ...swapRoutes,
  ...earnRoutes,
  ...proofsRoutes,
  ...papersRoutes,
  { path: '*', title: 'home', tab: 'home', view: { redirect: '/' } },
];

/** The six tabs of the top nav and the tab bar. */
export const TABS: readonly { key: TabKey; path: string }[] = ROUTES.flatMap((route) =>
  route.tabRoot && route.tab ? [{ key: route.tab, path: route.path }] : [],
);

const HOME = ROUTES[0] as RouteEntry;

/** The entry the router shows for a path (the same ranking as the router's). */
export function routeMeta(pathname: string): RouteEntry {
  return matchRoutes(ROUTES as RouteEntry[], pathname)?.[0]?.route ?? HOME;
}

/** The login, register and reset pages show neither nav nor footer (spec §2). */
export function isPassPage(pathname: string): boolean {
  return routeMeta(pathname).chrome === 'pass';
}

/** The social sign-in return page hides the desktop nav and footer and the mobile tab bar. */
export function isLoginCallback(pathname: string): boolean {
  return routeMeta(pathname).chrome === 'bare';
}

export function isTabRoot(pathname: string): boolean {
  return routeMeta(pathname).tabRoot === true;
}
