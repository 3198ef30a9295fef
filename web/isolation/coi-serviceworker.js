// Cross-origin isolation for a static host that sends no COOP/COEP headers: a service worker adds
// them. Isolation gives the page SharedArrayBuffer, which lets Stop interrupt Python instead of
// restarting it (../runtime/python-runtime.js).
//
// One file, two roles (the idea of npm coi-serviceworker, whose switch `window.coi.shouldRegister`
// it keeps): loaded by a page's <script>, it registers itself; run as the service worker, it adds
// the headers. What differs from coi-serviceworker, and why:
// - No reload. coi-serviceworker reloads a reader's very first page as soon as it has registered,
//   so that the page comes back through the worker: the page loaded twice, its first paint and
//   Python's start waited for the worker (benchmarks/README.md). Here the first page stays as it
//   came: Python runs in it without shared memory (Stop restarts Python there, and the status
//   line says so before the reader presses it). Once the worker is active, the next link the
//   reader follows to another page of the site loads that page in full, through the worker, so it
//   is isolated; Material's instant navigation takes over from there.
// - COEP is always `require-corp`. It is the mode every engine honours: WebKit ignores
//   `credentialless` (the page was never isolated there). Every file of the site is same-origin,
//   so require-corp blocks nothing.
// - Only documents and workers get the headers, the only responses whose COOP/COEP count. Until
//   the site is kept offline (below), every other request (Pyodide's 14 MB among them) goes to
//   the network untouched, as if there were no service worker: no copy through the worker. A
//   failed fetch answers Response.error(), never undefined (coi-serviceworker handed respondWith
//   an undefined when a navigation aborted a page's requests, which Firefox reports as an error).
//
// Its second job: keeping the site for offline reading. Once a page asks it to ("keep", sent by
// ../offline/offline-status.js after the page has loaded), it downloads every file that
// offline.json lists (hooks/publish.py: the pages, their scripts and styles, Pyodide's files, the
// wheel and the lock file) into a Cache Storage of that build's version, and from then on
// answers every request of the site from there: the site opens, and its Python runs, with no
// network. Each later "keep" fetches offline.json again: when a newer build is published, its
// changed files are downloaded into a cache of the new version (unchanged ones are copied), the
// pages are told, and the reader's next full page load switches to it. The reader's edits,
// progress and settings live in localStorage, which no version switch touches. "forget" drops
// every kept file and stops keeping (until "keep-again"). Without offline.json (`mkdocs serve`)
// nothing is kept, and the worker only adds the isolation headers.

if (typeof window === "undefined") {
  const HEADED_DESTINATIONS = new Set(["document", "iframe", "worker", "sharedworker"]);
  const ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
  };
  const SCOPE = self.registration.scope;
  const STATE_CACHE = "scratchgrad-offline"; // one small entry: the state below, per scope
  const STATE_KEY = new URL("offline-state.json", SCOPE).href;
  const SITE_CACHE = `scratchgrad-site ${SCOPE} `; // + a build's version
  const LIST_URL = new URL("offline.json", SCOPE).href;
  const PARALLEL_DOWNLOADS = 4;
  const PROGRESS_EVERY_MS = 250;

  /**
   * What is kept: {enabled, current, next, previous}, each of the last three a build's
   * {version, bytes} or null. `current` answers requests; `next` (complete, newer) takes over on
   * the next page load; `previous` stays for pages still open from before that switch.
   */
  let state = null;
  const stateLoaded = readState().then((read) => (state = read));
  let download = null; // the download under way: {version, done, total, promise}
  let failure = null; // why the last download stopped, for the page to show

  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener("fetch", (event) => {
    const { request } = event;
    const headed = HEADED_DESTINATIONS.has(request.destination) || request.mode === "navigate";
    const ours = request.method === "GET" && request.url.startsWith(SCOPE);
    // Until a site is kept, every other request goes to the network untouched, as if there were
    // no service worker (Pyodide's 14 MB included: no copy through the worker).
    if (ours && (state === null || state.current)) event.respondWith(fromKeptSite(request, headed));
    else if (headed) event.respondWith(withIsolationHeaders(request));
  });
  self.addEventListener("message", (event) => {
    const task = { status: report, keep, forget, "keep-again": keepAgain }[event.data?.sgOffline];
    if (task) event.waitUntil(task());
  });

  /** The network's response with the isolation headers; a network error stays a network error. */
  async function withIsolationHeaders(request) {
    let response;
    try {
      response = await fetch(request);
    } catch {
      return Response.error(); // an aborted navigation or worker load, or no network
    }
    return isolated(response);
  }

  function isolated(response) {
    if (response.status === 0) return response; // opaque: its headers cannot be changed
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  /** The kept copy of `request`'s file (a page: of the newest complete build), else the network's. */
  async function fromKeptSite(request, headed) {
    await stateLoaded;
    if (request.mode === "navigate" && state.next) await switchToNext();
    const kept = state.current && (await keptResponse(state.current.version, request));
    if (kept) return headed ? isolated(kept) : kept;
    if (headed) return withIsolationHeaders(request);
    return fetch(request).catch(() => Response.error());
  }

  async function keptResponse(version, request) {
    const cache = await caches.open(SITE_CACHE + version);
    // A query names a page's state (the playground's settings) or a build (the lock file's ?build=).
    return cache.match(request, { ignoreSearch: true, ignoreVary: true });
  }

  async function switchToNext() {
    state = { ...state, previous: state.current, current: state.next, next: null };
    await writeState();
    await dropCachesBut([state.current, state.previous]);
    await report();
  }

  /** Download what offline.json lists, if it is not what is kept already. */
  async function keep() {
    await stateLoaded;
    if (!state.enabled) return report();
    if (!download) {
      download = { version: null, done: 0, total: 0 };
      download.promise = keepNewest().finally(() => (download = null));
    }
    return download.promise;
  }

  async function keepNewest() {
    let listing;
    try {
      const response = await fetch(LIST_URL, { cache: "no-cache" });
      if (response.status === 404) {
        // This site is not (or no longer) built for offline reading, e.g. `mkdocs serve`.
        state = { ...state, current: null, next: null, previous: null };
        await writeState();
        await dropCachesBut([]);
        return report({ unavailable: true });
      }
      if (!response.ok) throw new Error(`offline.json: HTTP ${response.status}`);
      listing = await response.json();
    } catch {
      return report(); // no network: what is kept stays kept
    }
    const newest = state.next ?? state.current;
    if (newest?.version === listing.version) return report();
    failure = null;
    try {
      await downloadBuild(listing, newest);
    } catch (error) {
      failure = String(error.message ?? error);
      return report();
    }
    const build = { version: listing.version, bytes: listing.bytes };
    // The first build kept answers at once (the pages shown came from the network anyway).
    state = state.current ? { ...state, next: build } : { ...state, current: build };
    await writeState();
    await dropCachesBut([state.current, state.next, state.previous]);
    return report();
  }

  /** Every file of `listing` into its version's cache: copied from `older`'s where unchanged. */
  async function downloadBuild(listing, older) {
    const cache = await caches.open(SITE_CACHE + listing.version);
    const olderCache = older && (await caches.open(SITE_CACHE + older.version));
    const olderDigests = new Map();
    const olderList = olderCache && (await olderCache.match(LIST_URL));
    for (const [url, , digest] of olderList ? (await olderList.json()).files : []) olderDigests.set(url, digest);
    Object.assign(download, { version: listing.version, total: listing.bytes, done: 0 });
    let lastReport = 0;
    const queue = [...listing.files];
    async function fetchFiles() {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const [url, bytes, digest] = file;
        const key = new URL(url, SCOPE).href;
        if (!(await cache.match(key))) {
          const unchanged = olderDigests.get(url) === digest && (await olderCache.match(key));
          const response = unchanged || (await fetch(key, { cache: "no-cache" }));
          if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
          // A redirected response cannot answer a navigation: keep its body and headers only.
          await cache.put(key, response.redirected ? new Response(response.body, response) : response);
        }
        download.done += bytes;
        if (Date.now() - lastReport > PROGRESS_EVERY_MS) {
          lastReport = Date.now();
          report();
        }
      }
    }
    await Promise.all(Array.from({ length: PARALLEL_DOWNLOADS }, fetchFiles));
    // The list goes in last: a cache with its list is complete (and tells the next build what it holds).
    await cache.put(
      LIST_URL,
      new Response(JSON.stringify(listing), { headers: { "Content-Type": "application/json" } }),
    );
  }

  async function forget() {
    await stateLoaded;
    state = { enabled: false, current: null, next: null, previous: null };
    await writeState();
    await dropCachesBut([]);
    return report();
  }

  async function keepAgain() {
    await stateLoaded;
    state = { ...state, enabled: true };
    await writeState();
    return keep();
  }

  /** Delete the caches of this site's builds other than `builds` (nulls allowed). */
  async function dropCachesBut(builds) {
    const keptNames = new Set(builds.filter(Boolean).map((build) => SITE_CACHE + build.version));
    for (const name of await caches.keys()) {
      if (name.startsWith(SITE_CACHE) && !keptNames.has(name) && download?.version !== name.slice(SITE_CACHE.length)) {
        await caches.delete(name);
      }
    }
  }

  async function readState() {
    const kept = await (await caches.open(STATE_CACHE)).match(STATE_KEY);
    return kept ? kept.json() : { enabled: true, current: null, next: null, previous: null };
  }

  async function writeState() {
    const cache = await caches.open(STATE_CACHE);
    await cache.put(
      STATE_KEY,
      new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }),
    );
  }

  /** Tell every page of the site (controlled or not) what is kept: ../offline/offline-status.js shows it. */
  async function report(extra = {}) {
    await stateLoaded;
    const progress = download?.total ? { done: download.done, total: download.total } : null;
    const message = { sgOffline: "state", ...state, progress, failure, ...extra };
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
  }
} else {
  const shouldRegister = window.coi?.shouldRegister ?? (() => true);
  const serviceWorkers = navigator.serviceWorker;
  if (window.isSecureContext && serviceWorkers && shouldRegister()) {
    const page = document.documentElement.dataset;
    let active = Boolean(serviceWorkers.controller);
    if (!active) {
      // For the runtime's words on Stop (../runtime/python-runtime.js, whyStopRestarts).
      if (!window.crossOriginIsolated) page.sgIsolation = "coming";
      serviceWorkers
        .register(document.currentScript.src)
        .then(() => serviceWorkers.ready)
        .then(() => (active = true))
        .catch(() => {
          if (!window.crossOriginIsolated) page.sgIsolation = "unavailable"; // a private window, say
        });
    }
    // Capturing on window, this listener hears a click before Material's instant navigation does.
    // The browser follows the link itself, so the next page loads in full through the worker: once
    // to become isolated, and once a new build of the site is kept (../offline/offline-status.js).
    window.addEventListener(
      "click",
      (event) => {
        const fullLoad = !window.crossOriginIsolated || page.sgSiteUpdate === "ready";
        if (active && fullLoad && leavesThisPage(event)) event.stopPropagation();
      },
      { capture: true },
    );
  }

  /** Whether `event` is a plain click on a link to another page of this site, in this tab. */
  function leavesThisPage(event) {
    const link = event.target.closest?.("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0) return false;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false; // a new tab or window
    if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return false;
    const to = new URL(link.href, location.href);
    const samePage = to.pathname === location.pathname && to.search === location.search;
    return to.origin === location.origin && !samePage; // a link within the page only scrolls
  }
}
