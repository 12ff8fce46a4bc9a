import type { Language } from '@swx/contract';
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App, preloadRoute, queryClient } from './app/App.tsx';
import { answerCallsWith } from './app/firstCall.ts';
import { firstQuery } from './app/firstQuery.ts';
import { i18n, initI18n, switchLanguage } from './app/i18n.ts';
import { ROUTES } from './app/routes.ts';
import { setState } from './app/state.ts';

/**
 * The server side of the first screens, built on its own (`vite build --ssr`, apps/web/dist-server):
 * the build draws each parameterless route's screen with it (scripts/prerender.mjs), and the server
 * draws, per request, a screen whose data its URL names (apps/server/src/app.ts, `drawScreen`).
 */

/**
 * The routes drawn at build time: every path without parameters that shows a screen (a redirect
 * has none to draw; a parameter's page depends on what it names).
 */
export const FIRST_SCREEN_PATHS = ROUTES.filter(
  (route) => !/[:*]/.test(route.path) && !(typeof route.view === 'object' && 'redirect' in route.view),
).map((route) => route.path);

/** A layout of the app: the server picks it by the request's user agent, as the app does. */
export type Layout = 'mobile' | 'desktop';

/** The GET a server-drawn screen was drawn with, as the page carries it for the app (boot.js). */
export type DrawnCall = { url: string; headers: Record<string, string>; status: number; body: string };

// One render at a time: a render sets the app's state (language, layout, the query cache's data).
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

async function render(url: string, language: Language, layout: Layout): Promise<string> {
  if (!i18n.isInitialized) await initI18n(language);
  else await switchLanguage(language);
  const desktop = layout === 'desktop';
  setState({ language, isDesktop: desktop, viewWidth: desktop ? 1280 : 390, welcomeShown: true });
  await preloadRoute(new URL(url, 'http://page').pathname, 60_000);
  const Router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={url}>{children}</StaticRouter>
  );
  // A part that cannot be drawn here fails: React would ship it as a client-rendered boundary
  // carrying the error's message.
  const errors: unknown[] = [];
  const { prelude } = await prerender(<App Router={Router} />, {
    onError: (error) => void errors.push(error),
  });
  if (errors.length) throw new AggregateError(errors, `${url} (${language}): the screen did not render`);
  let html = '';
  const decoder = new TextDecoder();
  for await (const chunk of prelude as unknown as AsyncIterable<Uint8Array>)
    html += decoder.decode(chunk, { stream: true });
  html += decoder.decode();
  // The security policy (apps/server/src/platform/security.ts) allows no inline script or style.
  if (/<script|\sstyle="/.test(html)) throw new Error(`${url} (${language}): an inline script or style`);
  return html;
}

/**
 * A route's first screen as a signed-out visitor first sees it, drawn by the app's own components:
 * the page and its shell before any data has arrived, in one language and one layout. The server
 * sends it inside the page, so it is on screen before the app's script runs; the app's first
 * commit then draws the same elements in its place.
 */
export function renderFirstScreen(path: string, language: Language, layout: Layout): Promise<string> {
  return oneAtATime(() => render(path, language, layout));
}

/** Whether the screen at `url` is one the server draws with its data (app/firstQuery.ts). */
export const drawsWithData = (url: string): boolean =>
  firstQuery(new URL(url, 'http://page'), 'en') !== undefined;

/**
 * The screen at `url` drawn with its data, as a signed-out visitor on the demo book sees it once
 * its first call has answered: the app sends that call (app/firstQuery.ts) and `answer` answers
 * it (the server, in process, with the visitor's own address). `null` when the screen draws no
 * such data or the call failed: the page is then the plain one and the app asks for itself.
 */
export function drawScreen(
  url: string,
  language: Language,
  layout: Layout,
  answer: (url: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>,
): Promise<{ html: string; call: DrawnCall } | null> {
  return oneAtATime(async () => {
    setState({ language, isLogin: false, token: null, virtual: 1 });
    const query = firstQuery(new URL(url, 'http://page'), language);
    if (!query) return null;
    let call: DrawnCall | undefined;
    answerCallsWith(async (callUrl, headers) => {
      const answered = await answer(callUrl, headers);
      call = { url: callUrl, headers, ...answered };
      return new Response(answered.body, {
        status: answered.status,
        headers: { 'content-type': 'application/json' },
      });
    });
    try {
      await queryClient.prefetchQuery({ ...query, retry: false });
      answerCallsWith(undefined);
      if (!call || queryClient.getQueryState(query.queryKey)?.status !== 'success') return null;
      return { html: await render(url, language, layout), call };
    } finally {
      answerCallsWith(undefined);
      queryClient.clear();
    }
  });
}

/**
 * The page of one language (index.<language>.html) with a screen drawn in it: the screen in
 * `#root` (inert until the app's first commit: nothing typed into it is lost), its chunk's
 * stylesheets in the head, `data-first-screen` naming its language and layout (boot.js shows it
 * only to a visitor who reads that), and the call it was drawn with, as data (never run), for the
 * app to draw its first commit with the same answer.
 */
export function firstScreenPage(
  page: string,
  screen: { path: string; language: Language; layout: Layout; html: string; call?: DrawnCall },
): string {
  const { path, language, layout, html, call } = screen;
  // The route table the build wrote for boot.js: each lazy screen's chunks and stylesheets.
  const [files, routes] = JSON.parse(/data-routes='([^']*)'/.exec(page)?.[1] ?? '[[],[]]') as [
    string[],
    [string, number[]][],
  ];
  const route = routes.find(([pattern]) => new RegExp(pattern).test(path));
  const styles = (route?.[1] ?? [])
    .map((index) => files[index] ?? '')
    .filter((file) => file.endsWith('.css'))
    .map((file) => `<link rel="stylesheet" crossorigin href="/assets/${file}">`)
    .join('');
  // As data: `<` escaped, so nothing in an answer can close the element.
  const data = call
    ? `<script type="application/json" id="first-call">${JSON.stringify(call).replaceAll('<', '\\u003c')}</script>`
    : '';
  const drawn = page
    .replace(
      /<html lang="([^"]*)" dir="([^"]*)">/,
      `<html lang="$1" dir="$2" data-first-screen="${language} ${layout}">`,
    )
    // As functions: nothing in the screen or an answer is read as a replacement pattern ($&).
    .replace('<template id="app"', () => `${data}<template id="app"`)
    .replace('</head>', () => `${styles}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root" inert>${html}</div>`);
  if (!drawn.includes(`data-first-screen="${language} ${layout}"`) || !drawn.includes(html))
    throw new Error(`index.${language}.html: no <html lang dir> or empty #root to draw ${path} in`);
  if (call && !drawn.includes('id="first-call"'))
    throw new Error(`index.${language}.html: no <template id="app"> to put ${path}'s first call before`);
  return drawn;
}
