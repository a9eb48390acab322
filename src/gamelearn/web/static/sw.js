// gamelearn's service worker: the page's own files (the HTML, the CSS, the scripts, the icons)
// are kept in a cache, so the page opens offline (or with the local server stopped) and says it
// cannot reach the server, as teeko.cc's page does.  The JSON API is never cached: a game, a move
// or a learner always comes from the server.  Nothing is fetched from anywhere else.
const CACHE = "gamelearn-v3";
// What a reload needs: the page and every module main.js imports.  The modules it loads only when
// a view opens (the new-game form's controls, the review, training, the thesis memory) need the
// server anyway; each is kept the first time it is fetched.
const SHELL = [
  "/", "/static/style.css", "/static/theme.css", "/manifest.webmanifest", "/static/icon.svg",
  "/static/js/main.js", "/static/js/api.js", "/static/js/beyond.js", "/static/js/board.js", "/static/js/chart.js",
  "/static/js/connection.js", "/static/js/dom.js", "/static/js/format.js", "/static/js/learners.js",
  "/static/js/motion.js", "/static/js/spec.js", "/static/js/store.js",
];

self.addEventListener("install", (event) => {
  // A file missing from the list must not stop the rest from being kept.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(SHELL.map((url) => cache.add(url).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The page's files: from the server when it answers (and kept), else from the cache.  A page
// address with a query (/?id=...) is the same page.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/openapi.json") return;
  const key = url.pathname === "/" ? "/" : url.pathname;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) { const copy = response.clone(); caches.open(CACHE).then((cache) => cache.put(key, copy)); }
    return response;
  }).catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
