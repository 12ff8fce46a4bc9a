import type { Language } from '@swx/contract';
import type { FetchQueryOptions } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { marketQueries } from '../features/market/queries.ts';
import { routeMeta } from './routes.ts';

/** What the server and the app's first render ask for: the screen's own query's key and function. */
type FirstQueryOptions = Pick<
  FetchQueryOptions<unknown, Error, unknown, (string | number)[]>,
  'queryKey' | 'queryFn'
>;
type FirstQuery = (language: Language, values: Record<string, string>) => FirstQueryOptions | undefined;

/** The instrument page: its item, when `id` is an id. */
const instrumentInfo: FirstQuery = (language, { id }) => {
  const value = Number(id);
  return Number.isInteger(value) && value > 0 ? marketQueries.info(language, value) : undefined;
};

/**
 * The screens the server draws with their data (prerender.tsx `drawScreen`), each by its route:
 * the query its screen draws first, whose call is the route's `firstCall` (routes.ts; the test
 * holds the two to the same URL). `undefined` where the screen would not ask (an id that is no id).
 */
const FIRST_QUERIES: Readonly<Record<string, FirstQuery>> = {
  '/instrument': instrumentInfo,
  // spec §2's path of the same page
  '/cruuency': instrumentInfo,
};

/**
 * The query of the screen at `location` that the server draws with its data, with the values its
 * route's `firstCall` takes from the page's query and path; `undefined` for any other screen, or
 * when a value is missing.
 */
export function firstQuery(
  location: { pathname: string; search: string },
  language: Language,
): FirstQueryOptions | undefined {
  const route = routeMeta(location.pathname);
  const query = FIRST_QUERIES[route.path];
  if (!query || !route.firstCall) return undefined;
  const path = matchPath(route.path, location.pathname)?.params ?? {};
  const search = new URLSearchParams(location.search);
  const values: Record<string, string> = {};
  for (const [name, source] of Object.entries(route.firstCall.params)) {
    const value = source.startsWith('?') ? search.get(source.slice(1)) : path[source.slice(1)];
    if (!value) return undefined;
    values[name] = value;
  }
  return query(language, values);
}
