// Cross-origin isolation for a static host that sends no COOP/COEP headers: a service worker adds
// them. Isolation gives the page SharedArrayBuffer, which lets Stop interrupt Python instead of
// restarting it (../runtime/python-runtime.js).
//
// One file, two roles (the idea of npm coi-serviceworker, whose switch `window.coi.shouldRegister`
// it keeps): loaded by a page's <script>, it registers itself and reloads the page once, the first
// time, so that the page comes back through the service worker; run as the service worker, it adds
// the headers. What differs from coi-serviceworker, and why:
// - COEP is always `require-corp`. It is the mode every engine honours: WebKit ignores
//   `credentialless` (the page was never isolated there). Every file of the site is same-origin,
//   so require-corp blocks nothing.
// - Only documents and workers get the headers, the only responses whose COOP/COEP count. Every
//   other request (Pyodide's 14 MB among them) goes to the network untouched, as if there were no
//   service worker: no copy through the worker, and nothing to go wrong when the isolation reload
//   aborts the first page's requests (coi-serviceworker then handed respondWith an undefined,
//   which Firefox reports as an error).
// - The reload waits for the worker to be active, so one reload is enough.
// It marks a page it is about to reload, and announces a reload that will not come after all;
// ../boot/isolation.js reads both.

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
  const reloadComing =
    window.crossOriginIsolated === false && window.isSecureContext && serviceWorkers && !serviceWorkers.controller;
  if (reloadComing && shouldRegister()) {
    const RELOAD_COMING = Symbol.for("scratchgrad.isolationReloadComing"); // read by ../boot/isolation.js
    const RELOAD_DEADLINE_MS = 5000; // a worker that never activates (a browser that blocks them) must not hold the page
    window[RELOAD_COMING] = true;
    // No service worker after all (a private window, or one that never activates): the page runs
    // without isolation, and ../boot/isolation.js hears that the reload is off.
    const cancel = () => {
      if (!window[RELOAD_COMING]) return;
      window[RELOAD_COMING] = false;
      window.dispatchEvent(new Event("scratchgrad:isolation-reload-cancelled"));
    };
    const deadline = setTimeout(cancel, RELOAD_DEADLINE_MS);
    serviceWorkers
      .register(document.currentScript.src)
      .then(() => serviceWorkers.ready)
      .then(() => {
        clearTimeout(deadline);
        window.location.reload();
      })
      .catch(cancel);
  }
}
