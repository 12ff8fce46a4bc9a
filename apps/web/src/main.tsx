// The tokens first: they declare the cascade layers' order for every stylesheet after them.
import './styles/tokens.css';
import './styles/base.css';
import { LANGUAGE_TAGS } from '@swx/contract';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadRoute, queryClient } from './app/App.tsx';
import { firstQuery } from './app/firstQuery.ts';
import { i18n, initI18n } from './app/i18n.ts';
import { applyRootFont } from './app/layout.ts';
import { numberFormat } from './app/numberFormat.ts';
import { getState, setState } from './app/state.ts';

async function start(): Promise<void> {
  const state = getState();
  document.documentElement.dataset.layout = state.isDesktop ? 'desktop' : 'mobile';
  applyRootFont(window.innerWidth, state.isDesktop);
  let resizeFrame = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(() => {
      applyRootFont(window.innerWidth, getState().isDesktop);
      setState({ viewWidth: window.innerWidth });
    });
  });
  // A screen drawn before the app (by the build, or by the server with its data) is on screen, as
  // the app draws it (boot.js shows it only then): the app takes it over as it is (hydration: no
  // element drawn again). Not under the welcome board: the app draws its own board, and the screen
  // beneath it with its data only once the board is gone (the answer waits in firstCall.ts).
  const classes = document.documentElement.classList;
  const hydrate = classes.contains('first-screen') && !classes.contains('boot-welcome');
  const drawn =
    hydrate && window.swxFirstCall?.drawn ? firstQuery(window.location, state.language) : undefined;
  // The texts, and the screen the page opens on when it is a chunk of its own (boot.js started
  // fetching it with the entry), so that the first render draws the screen itself; and the data
  // the server drew that screen with (in the page), so that the first render draws the same.
  await Promise.all([
    initI18n(state.language),
    preloadRoute(window.location.pathname),
    drawn ? queryClient.prefetchQuery(drawn) : null,
  ]);
  // The browser's number and plural data for the language (Intl) loads on its first use, some
  // 10 ms on a desktop: in tasks of their own, not inside the first render's (one component's
  // render cannot be sliced).
  await inTask(() => numberFormat(LANGUAGE_TAGS[state.language]).format(1));
  await inTask(() => i18n.t('brand'));
  // A task of its own for the first render, and that render a transition: React draws the screen
  // in slices, yielding to the browser between them, instead of one long task (the first paint is
  // on screen already: index.html's #boot, which the app removes when it commits).
  await inTask(() => undefined);
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // Otherwise it draws: over the plain first paint, or under its own welcome board.
  if (hydrate) startTransition(() => void hydrateRoot(root, app));
  else startTransition(() => createRoot(root).render(app));
  // The shell for offline use (public/sw.js); it never caches API answers.
  navigator.serviceWorker?.register('/sw.js');
}

/** Runs `work` in a task of its own. */
function inTask(work: () => unknown): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      work();
      resolve();
    }, 0),
  );
}

void start();
