{% load static %}// Levée — the service worker of one table's pages (scope: its private link, or the desk's entry pages of a table). Pages: the network first, the last
// copy when the network is gone; static files: the copy first. Deals are never sent from here: the page's
// offline-entry.js keeps them in IndexedDB and sends them with their Idempotency-Key.
const CACHE = "{{ cache }}";
const FAMILY = "{{ family }}";  // the older copies this worker replaces (its own scope's, never another's)
// the rules engine without network (Pyodide and the zip of rules/ and scoring/): kept in a cache of its own, shared
// by the table links of this phone, named by its version; fetched by the tap page once it is usable
const ENGINE = "levee-engine-{{ engine_version }}";
const ENGINE_FILES = {{ engine_files|safe }};
const PAGES = {{ pages|safe }};
const STATIC = ["{% static 'css/levee.css' %}", "{% static 'css/tables.css' %}", "{% static 'vendor/htmx-2.0.11.min.js' %}",
                "{% static 'js/offline-entry.js' %}", "{% static 'js/deal-entry.js' %}", "{% static 'js/rules-engine.js' %}",
                "{% static 'js/table-sw.js' %}", "{% static 'js/page-actions.js' %}", "{% static 'img/levee-icon.svg' %}"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(
    [...PAGES, ...STATIC].map((url) => cache.add(new Request(url, {credentials: "same-origin"})).catch(() => null))
  )).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => (k.startsWith(FAMILY) && k !== CACHE) || (k.startsWith("levee-engine-") && k !== ENGINE))
      .map((k) => caches.delete(k))
  )).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const url = new URL(request.url);
  if (ENGINE_FILES.includes(url.pathname)) {  // the copy first; only a whole answer is kept, the worker alive till then
    event.respondWith(caches.match(request, {ignoreVary: true}).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(caches.open(ENGINE).then((cache) => cache.put(request, copy)));
      }
      return response;
    })));
    return;
  }
  if (url.pathname.startsWith("{% get_static_prefix %}")) {
    event.respondWith(caches.match(request, {ignoreVary: true}).then((hit) => hit || fetch(request).then((response) => {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
      return response;
    })));
    return;
  }
  event.respondWith(fetch(request).then((response) => {
    // a page the server sent elsewhere (the login page, the session ended) is not kept as this page
    if (response.ok && !response.redirected && (request.mode === "navigate" || request.headers.get("accept")?.includes("text/html"))) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request, {ignoreVary: true})  // Django varies on Cookie and Accept-Language
    .then((hit) => hit || caches.match(request, {ignoreSearch: true, ignoreVary: true}))
    .then((hit) => hit || caches.match(PAGES[0], {ignoreVary: true}))));
});
