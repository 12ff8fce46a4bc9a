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
 * has none to draw; a parameter's page depends on what it names).
 */
export const FIRST_SCREEN_PATHS = ROUTES.filter(
  (route) => !/[:*]/.test(route.path) && !(typeof route.view === 'object' && 'redirect' in route.view),
).map((route) => route.path);

/**
 * A route's first screen as a signed-out visitor first sees it, drawn by the app's own components
 * at build time (scripts/prerender.mjs): the page and its shell before any data has
 * arrived, in one language and one layout. The server sends it inside the page, so it is on screen
 * before the app's script runs; the app's first commit then draws the same elements in its place.
 */
export async function renderFirstScreen(path: string, language: Language, desktop: boolean): Promise<string> {
  if (!i18n.isInitialized) await initI18n(language);
  else await switchLanguage(language);
  setState({ language, isDesktop: desktop, viewWidth: desktop ? 1280 : 390, welcomeShown: true });
  await preloadRoute(path, 60_000);
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={path}>{children}</StaticRouter>
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
