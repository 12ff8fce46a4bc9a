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

// Price alerts pushed by the server (Web Push, modules/pricealerts): the payload is JSON
// {title, body, url, tag}; a click opens (or focuses) the app on the alert's instrument page.
self.addEventListener('push', (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || 'SWX', {
      body: alert.body || '',
      tag: alert.tag,
      icon: '/icon-192.png',
      data: { url: typeof alert.url === 'string' && alert.url.startsWith('/') ? alert.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find(
        (client) => client.url.startsWith(self.location.origin) && 'navigate' in client,
      );
      return open ? open.navigate(url).then((client) => client?.focus()) : self.clients.openWindow(url);
    }),
  );
});
