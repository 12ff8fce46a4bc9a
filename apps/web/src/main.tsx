// The tokens first: they declare the cascade layers' order for every stylesheet after them.
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadRoute } from './app/App.tsx';
import { initI18n } from './app/i18n.ts';
import { applyRootFont } from './app/layout.ts';
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
  // The texts, and the screen the page opens on when it is a chunk of its own (boot.js started
  // fetching it with the entry), so that the first render draws the screen itself.
  await Promise.all([initI18n(state.language), preloadRoute(window.location.pathname)]);
  // A task of its own for the first render, and that render a transition: React draws the screen
  // in slices, yielding to the browser between them, instead of one long task (the first paint is
  // on screen already: index.html's #boot, which the app removes when it commits).
  await new Promise((resolve) => setTimeout(resolve, 0));
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  // The shell for offline use (public/sw.js); it never caches API answers.
  navigator.serviceWorker?.register('/sw.js');
}

void start();
