// The service worker: keeps the app's shell (the offline page, its stylesheet, icons and manifest)
// so the app opens offline with a localized offline message. Pages and the API always go to the
// network (the navigation's preload); nothing under /swx/ (answers that can hold private data) or
// /message is ever cached.
// The build writes the shell's files and their version below (scripts/lib.mjs, serviceWorker).
const SHELL = [];
const VERSION = 'dev';
const CACHE = `swx-shell-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      // A page is fetched by the browser as it navigates (navigation preload), not after this
      // worker has started, and with the page's own request headers (its user agent picks the
      // layout of the first screen the server sends).
      .then(() => self.registration.navigationPreload?.enable())
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/swx/') || url.pathname === '/message') return;
  if (request.mode === 'navigate') {
    // A page from the network (the navigation's preload when there is one); without one, the
    // offline page in the reader's language.
    event.respondWith(
      Promise.resolve(event.preloadResponse)
        .then((preloaded) => preloaded ?? fetch(request))
        .catch(() => caches.match('/offline.html')),
    );
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((cached) => cached ?? fetch(request)));
  }
});
