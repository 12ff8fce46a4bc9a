import type { Language } from '@swx/contract';
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App, preloadRoute } from './app/App.tsx';
import { i18n, initI18n, switchLanguage } from './app/i18n.ts';
import { ROUTES } from './app/routes.ts';
import { setState } from './app/state.ts';

/**
 * The routes drawn at build time: every path without parameters that shows a screen (a redirect
 * has none to draw; a parameter's page depends on what it names), each with the query it is drawn
 * with. A screen that shows what its query names (the instrument page's `id`) is drawn loading,
 * its frame with "—" for the figures, which is the same for every such query; the others are
 * drawn without one and sent only for a URL without one.
 */
export const FIRST_SCREENS: readonly { path: string; query?: string }[] = ROUTES.filter(
  (route) => !/[:*]/.test(route.path) && !(typeof route.view === 'object' && 'redirect' in route.view),
).map((route) => (route.path === '/cruuency' ? { path: route.path, query: '?id=1' } : { path: route.path }));

/**
 * A route's first screen as a signed-out visitor first sees it, drawn by the app's own components
 * at build time (scripts/lib.mjs, prerenderPages): the page and its shell before any data has
 * arrived, in one language and one layout. The server sends it inside the page, so it is on screen
 * before the app's script runs; the app's first commit then draws the same elements in its place.
 */
export async function renderFirstScreen(
  { path, query = '' }: { path: string; query?: string },
  language: Language,
  desktop: boolean,
): Promise<string> {
  if (!i18n.isInitialized) await initI18n(language);
  else await switchLanguage(language);
  setState({ language, isDesktop: desktop, viewWidth: desktop ? 1280 : 390, welcomeShown: true });
  await preloadRoute(path, 60_000);
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path + query}>{children}</StaticRouter>
  );
  // A part that cannot be drawn here fails the build: React would ship it as a client-rendered
  // boundary carrying the error's message.
  const errors: unknown[] = [];
  const { prelude } = await prerender(<App Router={Router} />, {
    onError: (error) => void errors.push(error),
  });
  if (errors.length)
    throw new AggregateError(errors, `${path} (${language}): the first screen did not render`);
  let html = '';
  const decoder = new TextDecoder();
  for await (const chunk of prelude as unknown as AsyncIterable<Uint8Array>)
    html += decoder.decode(chunk, { stream: true });
  return html + decoder.decode();
}
