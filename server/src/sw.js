// Othello 3D's service worker (served as /sw.js; see server/src/offline.rs,
// which fills in VERSION, PRECACHE and SHELLS for the running deploy).
//
// - Install: caches every file of this deploy that the lobby and the offline
//   game need, under their hashed names, in one cache named after the deploy,
//   plus the app shells: the lobby and the offline page as an anonymous
//   visitor sees them, in each language.
// - Static files (hashed, immutable): from this deploy's cache, else the
//   network (and then kept). Never another deploy's cache.
// - Pages: always the network. Only when the network fails does a page come
//   from the shells: /offline and /analysis (with any query) as themselves,
//   any other path as the lobby.
// - /api, /ws and anything that is not a GET of this origin: untouched.
// - A new deploy installs beside the old one and waits; the page offers a
//   reload, which sends 'skip-waiting'. Older deploys' caches are deleted
//   when a new one takes over.
'use strict';
const VERSION = __VERSION__;
const PRECACHE = __PRECACHE__;
const SHELLS = __SHELLS__;
const CACHE = 'othello-' + VERSION;
const LANG_KEY = '/__othello/lang';
const STATIC = /^\/(pkg|vendor|style|i18n)\//;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(
        PRECACHE.concat(Object.values(SHELLS)).map(
          (url) => new Request(url, { credentials: 'omit', cache: 'reload' }),
        ),
      ),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('othello-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request, url));
  } else if (STATIC.test(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200 && /\.[0-9a-f]{16}\.[a-z]+$/.test(new URL(request.url).pathname)) {
    await cache.put(request, response.clone());
  }
  return response;
}

async function page(request, url) {
  try {
    const response = await fetch(request);
    const lang = response.headers.get('content-language');
    if (lang && SHELLS['/?' + lang]) {
      const cache = await caches.open(CACHE);
      await cache.put(LANG_KEY, new Response(lang));
    }
    return response;
  } catch (unreachable) {
    const cache = await caches.open(CACHE);
    // The offline page and the analysis board are their own shells (the
    // board reads a link's position from the address once it runs); any
    // other page is the lobby.
    const own = url.pathname === '/offline' || url.pathname === '/analysis';
    const path = own ? url.pathname : '/';
    if (url.pathname !== path) return Response.redirect(path, 303);
    const remembered = await cache.match(LANG_KEY);
    let lang = remembered ? await remembered.text() : '';
    if (!SHELLS[path + '?' + lang]) {
      lang = (self.navigator.language || '').toLowerCase().startsWith('el') ? 'el' : 'en';
    }
    const shell = await cache.match(SHELLS[path + '?' + lang]);
    if (shell) return shell;
    throw unreachable;
  }
}
