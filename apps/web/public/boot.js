// Runs before the first paint (a classic script in the head; the security policy allows no inline
// script), so that paint is drawn as the app will draw it, and starts the app after it:
// - the root font size of app/layout.ts (rootFontSizePx: on a phone it grows with the viewport
//   from a 375 px design width, 16 to 19 px), which main.tsx applies again on every resize;
// - a phone's first page of a browser session opens on the welcome board (spec §2), so the first
//   paint is that board (index.html's #boot), not a loading line the board then covers. The same
//   test as the app's: a phone by user agent (app/state.ts isDesktopUserAgent) and no welcomeShown
//   in session storage;
// - the app: the build keeps its module script and preloads inert in the head's <template id="app">,
//   and they go into the head once the first frame is on screen, so nothing of the app's start is
//   before the first paint (a hidden tab draws nothing: the app starts when the page is parsed).
//   Without the template (vite's dev server) the page's own module script runs.
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
    const template = document.getElementById('app');
    if (!template) return;
    for (const tag of template.content.children) {
      const copy = document.createElement(tag.localName);
      for (const { name, value } of tag.attributes) copy.setAttribute(name, value);
      document.head.append(copy);
    }
  };
  if (document.visibilityState === 'hidden') document.addEventListener('DOMContentLoaded', startApp);
  else requestAnimationFrame(() => setTimeout(startApp, 0));
})();
