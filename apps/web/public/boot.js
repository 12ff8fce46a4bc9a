// Runs before the first paint (a classic script in the head; the security policy allows no inline
// script), so that paint is drawn as the app will draw it, and starts the app after it:
// - the root font size of app/layout.ts (rootFontSizePx: on a phone it grows with the viewport
//   from a 375 px design width, 16 to 19 px), which main.tsx applies again on every resize;
// - a phone's first page of a browser session opens on the welcome board (spec §2), so the first
//   paint is that board (index.html's #boot), not a loading line the board then covers. The same
//   test as the app's: a phone by user agent (app/state.ts isDesktopUserAgent) and no welcomeShown
//   in session storage;
// - the app: the build keeps its module preloads and one module script per chunk, in evaluation
//   order, inert in the head's <template id="app">. Once the first contentful paint is on screen
//   the preloads go into the head (every chunk fetched at once), then the scripts one after another, each when
//   the one before has run: a chunk's evaluation is a task of its own, not one long task for all.
//   (A hidden tab draws nothing: the app starts when the page is parsed.) Without the template
//   (vite's dev server) the page's own module script runs.
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
  const copy = (tag) => {
    const element = document.createElement(tag.localName);
    for (const { name, value } of tag.attributes) element.setAttribute(name, value);
    return element;
  };
  const startApp = () => {
    const template = document.getElementById('app');
    if (!template) return;
    const tags = [...template.content.children];
    for (const tag of tags) if (tag.localName !== 'script') document.head.append(copy(tag));
    const scripts = tags.filter((tag) => tag.localName === 'script');
    const next = () => {
      const tag = scripts.shift();
      if (!tag) return;
      const script = copy(tag);
      // A module script's load event follows its evaluation (error: it could not be fetched).
      script.addEventListener('load', () => setTimeout(next, 0));
      script.addEventListener('error', () => setTimeout(next, 0));
      document.head.append(script);
    };
    next();
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    startApp();
  };
  if (document.visibilityState === 'hidden') {
    document.addEventListener('DOMContentLoaded', start);
    return;
  }
  // After the first contentful paint (a first frame may be drawn before the text is), in a task of
  // its own; where paint timing is not reported, after the first frame. Either way at most 3 s on.
  setTimeout(start, 3000);
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(start, 0);
    }).observe({ type: 'paint', buffered: true });
  } else requestAnimationFrame(() => setTimeout(start, 0));
})();
