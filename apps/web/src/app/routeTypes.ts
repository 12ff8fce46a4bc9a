import type { CallName } from '@swx/contract';
import type { ComponentType } from 'react';

/**
 * What a route is (app/routes.ts builds the route list from every feature's `routes.ts`): the
 * shells, the router, the build's preload table and the first screens all read these entries.
 */
export type TabKey = 'home' | 'market' | 'trading' | 'loan' | 'nfts' | 'profile';

export type Loader = () => Promise<{ default: ComponentType }>;

/**
 * What a route shows: a screen loaded on first visit (its own chunk), the home page (in the
 * entry chunk), the "opening soon" page of a feature a later issue builds, or a redirect.
 */
export type RouteView =
  | {
      load: Loader;
      /** The module the loader's import is relative to (`import.meta.url` of its routes file). */
      from?: string;
    }
  | 'home'
  | 'upcoming'
  | { redirect: string };

export type RouteEntry = {
  /** A react-router path: `:name` parameters, `*` for the rest. */
  path: string;
  /**
   * Its title, a key under `title.` (document title, mobile bar, page heading): in its feature's
   * `titles/<language>.json`, or the app's `locales/` for the app's own routes.
   */
  title: string;
  tab?: TabKey;
  /** One of the six tabs, in this order. */
  tabRoot?: true;
  /**
   * `pass`: login, register and reset show neither nav nor footer nor tab bar (spec §2), and no
   * one returns to them after a login; `bare`: the social sign-in return page hides the desktop
   * nav and footer and the mobile tab bar.
   */
  chrome?: 'pass' | 'bare';
  /**
   * Listed on the account page (features/account/Profile.tsx), by `order` (lower first), under its
   * title; `to` is the link when the path has parameters.
   */
  account?: { order: number; to?: string };
  view: RouteView;
  /**
   * The GET whose answer the screen draws first, when the page opens on this route: boot.js sends
   * it with the app's first requests instead of once the app has run up to the screen, and the
   * screen's own call takes its answer (app/firstCall.ts; the same URL and headers, or it is sent
   * again). Each path parameter of the call by where it comes from: `?name`, the page's query;
   * `:name`, a parameter of this route's path.
   */
  firstCall?: { name: CallName; params: Record<string, `?${string}` | `:${string}`> };
};

/** A feature's routes, each loader stamped with the file its import is relative to (for the build). */
export function featureRoutes(from: string, entries: readonly RouteEntry[]): readonly RouteEntry[] {
  return entries.map((entry) =>
    typeof entry.view === 'object' && 'load' in entry.view
      ? { ...entry, view: { ...entry.view, from } }
      : entry,
  );
}
