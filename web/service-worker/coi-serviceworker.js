// The site's one service worker: cross-origin isolation for a static host that sends no COOP/COEP
// headers (so Stop can interrupt Python), and the copy of the whole site a reader keeps for reading
// offline. Loaded by a page's <script> it registers itself; run as the service worker it adds the
// headers and keeps the site. Why it differs from npm coi-serviceworker (no reload, COEP always
// require-corp) and which requests it answers from the kept copy: ARCHITECTURE.md, "The service worker".

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
  const NOT_FOUND_PAGE = new URL("404.html", SCOPE).href;
  const PARALLEL_DOWNLOADS = 4;
  const PROGRESS_EVERY_MS = 250;

  /**
   * What is kept: {enabled, current, previous, clients}. `current` is the newest complete build
   * ({version, bytes}) and answers when the network fails; `previous`, the one before it, stays
   * for pages still open from it; `clients` maps each page or worker the kept copy answered to
   * {version, page}: its build's, and the page it belongs to (kept with the rest: this worker
   * may be stopped and started again while such a page is open).
   */
  let state = null;
  const stateLoaded = readState().then((read) => (state = read));
  let published = null; // the version offline.json last named
  let download = null; // the download under way: {version, done, total, promise}
  let failure = null; // why the last download stopped, for the page to show

  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener("fetch", (event) => {
    const { request } = event;
    if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
    const headed = HEADED_DESTINATIONS.has(request.destination) || request.mode === "navigate";
    if (state === null || state.clients[event.clientId]) event.respondWith(fromClientsBuild(event, headed));
    else if (headed) event.respondWith(fromNetworkFirst(event));
  });
  self.addEventListener("message", (event) => {
    const task = { status: report, keep, forget, "keep-again": keepAgain }[event.data?.sgOffline];
    if (task) event.waitUntil(task());
  });

  /** A request of a page (or worker) the kept copy answered: the file of that page's build. */
  async function fromClientsBuild(event, headed) {
    await stateLoaded;
    const client = state.clients[event.clientId];
    const kept = client && (await keptFile(client.version, event.request.url));
    if (!kept) return headed ? fromNetworkFirst(event) : fetchOrError(event.request);
    if (event.resultingClientId) await rememberClient(event.resultingClientId, client); // a worker it starts
    return headed ? isolated(kept) : kept;
  }

  /** A page or a worker's script: the network's, isolated; the kept copy's if the network fails. */
  async function fromNetworkFirst(event) {
    const { request } = event;
    try {
      // Asked of the server (no-cache): a page the HTTP cache still held when the network is gone
      // would count as the network's, and every file it loads would go to the network, and fail.
      return isolated(await fetch(request, { cache: "no-cache" }));
    } catch {
      // No network (or an aborted load): the kept copy, if there is one.
    }
    await stateLoaded;
    const build = state.current;
    let kept = build && (await keptFile(build.version, request.url));
    if (!kept && build && request.mode === "navigate") kept = await notFoundPage(build.version, request.url);
    if (!kept) return Response.error();
    if (event.resultingClientId) {
      // A page is its own; a worker belongs to the page that started it.
      const page = request.mode === "navigate" ? event.resultingClientId : event.clientId;
      await rememberClient(event.resultingClientId, { version: build.version, page });
    }
    return isolated(kept);
  }

  function fetchOrError(request) {
    return fetch(request).catch(() => Response.error());
  }

  /** `response` with the isolation headers, as a new response (never a redirected one). */
  function isolated(response) {
    if (response.status === 0) return response; // opaque: its headers cannot be changed
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  /** The kept file at `url` in build `version`, or undefined. A query never names another file. */
  async function keptFile(version, url) {
    const cache = await caches.open(SITE_CACHE + version);
    return cache.match(url, { ignoreSearch: true, ignoreVary: true });
  }

  /** A page address without its final slash redirects to the page; any other, the site's 404 page. */
  async function notFoundPage(version, url) {
    const address = new URL(url);
    address.search = "";
    if (!address.pathname.endsWith("/") && (await keptFile(version, `${address.href}/`))) {
      return Response.redirect(`${address.href}/`, 301);
    }
    const page = await keptFile(version, NOT_FOUND_PAGE);
    return page && new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
  }

  /** Remember that `clientId` (a page or a worker) gets its files from the kept build `version`. */
  async function rememberClient(clientId, { version, page }) {
    if (page === clientId) await forgetClosedClients(); // a new page: the closed ones go
    state = { ...state, clients: { ...state.clients, [clientId]: { version, page } } };
    await writeState();
  }

  /** Download what offline.json lists, if it is not what is kept already; report either way. */
  async function keep() {
    await stateLoaded;
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
        state = { ...state, current: null, previous: null };
        await writeState();
        await dropCachesBut([]);
        return report({ unavailable: true });
      }
      if (!response.ok) throw new Error(`offline.json: HTTP ${response.status}`);
      listing = await response.json();
    } catch {
      return report(); // no network: what is kept stays kept
    }
    published = listing.version;
    if (!state.enabled || state.current?.version === listing.version) return report();
    failure = null;
    try {
      await downloadBuild(listing, state.current);
    } catch (error) {
      failure = String(error.message ?? error);
      return report();
    }
    state = { ...state, previous: state.current, current: { version: listing.version, bytes: listing.bytes } };
    await forgetClosedClients();
    await writeState();
    await dropCachesBut([state.current, state.previous]);
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
          // Kept as a plain response: a redirected one could never answer a navigation.
          await cache.put(key, response.redirected ? new Response(await response.blob(), response) : response);
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
    await cache.put(LIST_URL, jsonResponse(listing));
  }

  async function forget() {
    await stateLoaded;
    state = { enabled: false, current: null, previous: null, clients: {} };
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

  /** Forget the pages of the kept copy that are closed now, and their workers. (Pages only: not
   * every engine lists dedicated workers among a service worker's clients.) */
  async function forgetClosedClients() {
    const open = new Set((await self.clients.matchAll({ type: "window" })).map((client) => client.id));
    const clients = Object.fromEntries(Object.entries(state.clients).filter(([, { page }]) => open.has(page)));
    state = { ...state, clients };
  }

  /** Delete the caches of this site's builds other than `builds` and those open pages still use. */
  async function dropCachesBut(builds) {
    const used = [...builds.filter(Boolean), ...Object.values(state.clients)].map(({ version }) => version);
    if (download?.version) used.push(download.version);
    const keptNames = new Set(used.map((version) => SITE_CACHE + version));
    for (const name of await caches.keys()) {
      if (name.startsWith(SITE_CACHE) && !keptNames.has(name)) await caches.delete(name);
    }
  }

  async function readState() {
    const kept = await (await caches.open(STATE_CACHE)).match(STATE_KEY);
    const read = kept ? await kept.json() : {};
    return { enabled: true, current: null, previous: null, clients: {}, ...read };
  }

  async function writeState() {
    await (await caches.open(STATE_CACHE)).put(STATE_KEY, jsonResponse(state));
  }

  function jsonResponse(value) {
    return new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json" } });
  }

  /** Tell every page of the site (controlled or not) what is kept: ../offline/offline-status.js shows it. */
  async function report(extra = {}) {
    await stateLoaded;
    const progress = download?.total ? { done: download.done, total: download.total } : null;
    const { enabled, current } = state;
    const message = { sgOffline: "state", enabled, current, published, progress, failure, ...extra };
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
    // to become isolated, and once a new build of the site is published (../offline/offline-status.js).
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
