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
// - Only documents and workers get the headers, the only responses whose COOP/COEP count. Every
//   other request (Pyodide's 14 MB among them) goes to the network untouched, as if there were no
//   service worker: no copy through the worker, and nothing to go wrong when a navigation aborts
//   a page's requests (coi-serviceworker then handed respondWith an undefined, which Firefox
//   reports as an error).

if (typeof window === "undefined") {
  const HEADED_DESTINATIONS = new Set(["document", "iframe", "worker", "sharedworker"]);
  const ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
  };

  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener("fetch", (event) => {
    const { request } = event;
    if (!HEADED_DESTINATIONS.has(request.destination) && request.mode !== "navigate") return;
    event.respondWith(withIsolationHeaders(request));
  });

  /** The network's response with the isolation headers; a network error stays a network error. */
  async function withIsolationHeaders(request) {
    let response;
    try {
      response = await fetch(request);
    } catch {
      return Response.error(); // an aborted navigation or worker load: nobody is waiting for it
    }
    if (response.status === 0) return response; // opaque: its headers cannot be changed
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
} else {
  const shouldRegister = window.coi?.shouldRegister ?? (() => true);
  const serviceWorkers = navigator.serviceWorker;
  const notIsolatedYet =
    window.crossOriginIsolated === false && window.isSecureContext && serviceWorkers && !serviceWorkers.controller;
  if (notIsolatedYet && shouldRegister()) {
    // For the runtime's words on Stop (../runtime/python-runtime.js, whyStopRestarts).
    const isolation = document.documentElement.dataset;
    isolation.sgIsolation = "coming";
    let active = false;
    serviceWorkers
      .register(document.currentScript.src)
      .then(() => serviceWorkers.ready)
      .then(() => (active = true))
      .catch(() => (isolation.sgIsolation = "unavailable")); // a private window, say: no page is isolated
    // Capturing on window, this listener hears a click before Material's instant navigation does.
    window.addEventListener(
      "click",
      (event) => {
        if (active && leavesThisPage(event)) event.stopPropagation(); // the browser follows the link itself
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
