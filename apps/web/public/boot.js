// Runs before the first paint (a classic script in the head; the security policy allows no inline
// script), so that paint is drawn as the app will draw it, and starts the app after it:
// - the root font size of app/layout.ts (rootFontSizePx: on a phone it grows with the viewport
//   from a 375 px design width, 16 to 19 px), which main.tsx applies again on every resize;
// - a phone's first page of a browser session opens on the welcome board (spec §2), so the first
//   paint is that board (index.html's #boot), not a loading line the board then covers. The same
//   test as the app's: a phone by user agent (app/state.ts isDesktopUserAgent) and no welcomeShown
//   in session storage;
// - the app's module script: the build names it in the head as a module preload marked data-app
//   (fetched with its chunks while the page paints), and it is evaluated once the first frame is on
//   screen, so the first paint never waits for the app's start. (A hidden tab draws nothing: the
//   app starts at once.) Without the mark (vite's dev server) the page's own module script runs.
// app/boot.test.ts runs this file against layout.ts and state.ts.
(() => {
  const root = document.documentElement;
  const phone = /Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
  const size = phone ? Math.min(19, Math.max(16, (16 * window.innerWidth) / 375)) : 16;
  root.style.fontSize = `${(Math.round(size * 100) / 100 / 16) * 100}%`;
  try {
    if (phone && sessionStorage.getItem('welcomeShown') !== '1') root.classList.add('boot-welcome');
  } catch {
    // Storage blocked: the plain first paint; the app decides about the board itself.
  }
  const startApp = () => {
    const app = document.querySelector('link[data-app]');
    if (!app) return;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = app.href;
    document.head.append(script);
  };
  if (document.visibilityState === 'hidden') document.addEventListener('DOMContentLoaded', startApp);
  else requestAnimationFrame(() => setTimeout(startApp, 0));
})();
