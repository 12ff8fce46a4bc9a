// Runs before the first paint (a classic script in the head; the security policy allows no inline
// script), so that paint is drawn as the app will draw it, and starts the app after it:
// - the layout of app/layout.ts (isDesktopLayout: mobile on a phone by user agent, and in a
//   window narrower than DESKTOP_MIN_WIDTH), on the root as data-layout, and its root font size
//   (rootFontSizePx: in the mobile layout it grows with the viewport from a 375 px design width,
//   16 to 19 px), which main.tsx applies again on every resize;
// - a phone's first page of a browser session opens on the welcome board (spec §2), so the first
//   paint is that board (index.html's #boot), not a loading line the board then covers. The same
//   test as the app's: a phone by user agent (app/state.ts isPhone) and no welcomeShown in session
//   storage;
// - the app: the build keeps its module preloads and one module script per chunk, in evaluation
//   order, inert in the head's <template id="app">. Once the first contentful paint is on screen
//   the scripts go in one after another, each when the one before has run: a chunk's evaluation is
//   a task of its own, not one long task for all. The preloads (low priority, so they never hold up
//   the first paint) go into the head at once, every chunk fetched in parallel with the first paint,
//   when the app has to draw the page; when the first paint is the welcome board or a first screen
//   the build drew, which a visitor reads first, only once that paint is on screen, a few a task. (A hidden tab
//   draws nothing: the app starts when the page is parsed.) Without the template (vite's dev server) the page's own module script runs.
//   The template comes before this script in the head, so it is there when this runs. When the
//   page opens on a screen of its own chunk (a deep link, a reload), that screen's chunks and
//   stylesheets are preloaded with the entry's: the template holds them per route;
// - a page whose first screen the build drew (scripts/prerender.mjs), or the server with its data
//   (prerender.tsx drawScreen), shows it only to a signed-out visitor reading its language in its
//   layout, and with its data only when the app would ask for that data with the same request:
//   the screen the app will draw.
// app/boot.test.ts runs this file against layout.ts and state.ts.
(() => {
  const root = document.documentElement;
  const phone = /Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
  // app/layout.ts DESKTOP_MIN_WIDTH.
  const mobile = phone || window.innerWidth < 1024;
  root.dataset.layout = mobile ? 'mobile' : 'desktop';
  const size = mobile ? Math.min(19, Math.max(16, (16 * window.innerWidth) / 375)) : 16;
  root.style.fontSize = `${(Math.round(size * 100) / 100 / 16) * 100}%`;
  let board = false;
  try {
    board = phone && sessionStorage.getItem('welcomeShown') !== '1';
  } catch {
    // Storage blocked: the plain first paint; the app decides about the board itself.
  }
  if (board) root.classList.add('boot-welcome');
  // The app's language and login as app/state.ts reads them (storage blocked: English, signed out).
  let language = 'en';
  let signedIn = false;
  let token = null;
  // The book as api.ts words it: `virtual` 1 (the demo book, the default) is NO.
  let virtually = 'NO';
  try {
    language = localStorage.getItem('language') ?? localStorage.getItem('lang') ?? 'en';
    token = localStorage.getItem('token');
    signedIn = localStorage.getItem('isLogin') === 'true' && token !== null;
    virtually = localStorage.getItem('virtual') === '0' ? 'YES' : 'NO';
  } catch {
    // Storage blocked: the app starts in English, signed out, on the demo book.
  }
  // A page whose first screen the build drew (scripts/prerender.mjs; data-first-screen names its
  // language and layout) shows it when it is what the app will draw: a signed-out visitor on the
  // demo book reading that language in that layout (the server picks the layout by the request's
  // user agent alone, which a service worker's fetch or an emulated phone may not share, and which
  // says nothing of a narrow desktop window's mobile layout); the app then
  // takes it over as it is (main.tsx). Otherwise it stays hidden and the plain first paint shows
  // (base.css).
  const readsScreen =
    root.dataset.firstScreen === `${language} ${root.dataset.layout}` && !signedIn && virtually === 'NO';
  // A screen drawn with data shows only once its data is known to be the app's (below).
  const drawnCall = document.getElementById('first-call');
  let firstScreen = readsScreen && !drawnCall;
  const copy = (tag) => {
    const element = document.createElement(tag.localName);
    for (const { name, value } of tag.attributes) element.setAttribute(name, value);
    return element;
  };
  const app = document.getElementById('app');
  const tags = [...(app?.content.children ?? [])];
  /** The screen's first call (routes.ts firstCall), sent with the preloads. */
  let sendFirstCall = () => undefined;
  // The screen of the path the page opens on, when it is a chunk of its own: its chunks and
  // stylesheets are fetched with the entry's (the build lists the routes most specific first).
  try {
    const [files, routes, settings] = JSON.parse(app?.getAttribute('data-routes') || '[[],[]]');
    const route = routes.find(([pattern]) => new RegExp(pattern).test(location.pathname));
    // The GET the screen draws first, with the headers app/api.ts sends (its language's tag, the
    // book, the token): the screen's own call takes its answer (app/firstCall.ts) when its URL
    // and headers are these; otherwise it sends its own and this answer goes unused.
    const tag = settings?.languages?.[language];
    if (route?.[3] && tag) {
      const [path, sources] = route[3];
      const groups = new RegExp(route[0]).exec(location.pathname) ?? [];
      const query = new URLSearchParams(location.search);
      let complete = true;
      const url = path.replace(/:([A-Za-z]+)/g, (_, name) => {
        const source = sources[name];
        const raw = typeof source === 'number' ? groups[source] : query.get(source);
        let value = raw ?? '';
        try {
          if (typeof source === 'number') value = decodeURIComponent(value);
        } catch {
          value = '';
        }
        if (!value) complete = false;
        return encodeURIComponent(value);
      });
      const headers = { accept: 'application/json', 'accept-language': tag, virtually };
      if (token) headers.authorization = token;
      // A screen the server drew with its data carries the call it was drawn with (prerender.tsx
      // firstScreenPage): the app takes that answer when it is this call, and draws the same screen.
      let drawn = null;
      try {
        drawn = JSON.parse(drawnCall?.textContent || 'null');
      } catch {
        // Not readable: the call is sent.
      }
      const same =
        drawn?.url === url &&
        Object.keys(drawn.headers).length === Object.keys(headers).length &&
        Object.entries(headers).every(([name, value]) => drawn.headers[name] === value);
      if (complete && same) {
        const response = new Response(drawn.body, {
          status: drawn.status,
          headers: { 'content-type': 'application/json' },
        });
        window.swxFirstCall = {
          url,
          headers,
          response: Promise.resolve(response),
          at: performance.now(),
          drawn: true,
        };
        firstScreen = readsScreen;
      } else if (complete)
        sendFirstCall = () => {
          const response = fetch(url, { headers, signal: AbortSignal.timeout(settings.timeout) });
          // Handled where it is taken; never an unhandled rejection when it is not.
          response.catch(() => undefined);
          window.swxFirstCall = { url, headers, response, at: performance.now() };
        };
    }
    // The screen's texts in the app's language are fetched too.
    for (const index of route ? [...route[1], ...(route[2][language] ?? [])] : []) {
      const href = `/assets/${files[index]}`;
      const attributes = href.endsWith('.css')
        ? { rel: 'preload', as: 'style', crossorigin: '', href }
        : { rel: 'modulepreload', fetchpriority: 'low', crossorigin: '', href };
      tags.push({
        localName: 'link',
        attributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
      });
    }
  } catch {
    // No table (vite's dev server) or none readable: the screen's chunks load when it renders.
  }
  if (firstScreen) root.classList.add('first-screen');
  let preloaded = false;
  /** spread: a few hints a task (after the first paint: a route's every chunk, stylesheet and text at once was one task long enough to block a phone). */
  const preload = (spread) => {
    if (preloaded) return;
    preloaded = true;
    sendFirstCall();
    const hints = tags.filter((tag) => tag.localName !== 'script');
    const add = () => {
      for (const tag of hints.splice(0, spread ? 3 : hints.length)) document.head.append(copy(tag));
      if (hints.length) setTimeout(add, 0);
    };
    add();
  };
  // A page that draws itself before the app (the welcome board, a first screen the build drew)
  // fetches the app once that is on screen; otherwise at once, as the app draws the page.
  if (!board && !firstScreen) preload();
  const startApp = () => {
    if (!tags.length) return;
    preload(true);
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
