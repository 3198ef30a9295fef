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
// - The page that the reload replaces stops loading at once (window.stop()): on a first visit it
//   cost the Python start-up 0.2 s in Chromium and 0.6 s in Firefox to load and then unload it.
//   Should registering fail, the page reloads once more, remembered for the tab, without isolation.

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
  // This tab tried once and got no service worker (a private window, or one that never activates):
  // its pages run without isolation. A session flag, so that failing cannot loop into reloads.
  const UNAVAILABLE = "scratchgrad:isolation-unavailable";
  const RELOAD_DEADLINE_MS = 5000; // a worker that never activates (a browser that blocks them) must not hold the page
  const shouldRegister = window.coi?.shouldRegister ?? (() => true);
  const serviceWorkers = navigator.serviceWorker;
  const notIsolatedYet =
    window.crossOriginIsolated === false && window.isSecureContext && serviceWorkers && !serviceWorkers.controller;
  if (notIsolatedYet && shouldRegister() && mayTryInThisTab()) {
    const script = document.currentScript.src;
    // The page the reload replaces loads nothing more: no stylesheet, script, font or Python
    // worker (nothing below this script is parsed), and it unloads at once. What the reader
    // sees for that moment is an empty page, in their light or dark colours.
    document.documentElement.style.colorScheme = "light dark";
    window.stop();
    let reloading = false;
    const reload = (isolated) => {
      if (reloading) return;
      reloading = true;
      if (!isolated) sessionStorage.setItem(UNAVAILABLE, "yes");
      window.location.reload();
    };
    const deadline = setTimeout(() => reload(false), RELOAD_DEADLINE_MS);
    serviceWorkers
      .register(script)
      .then(() => serviceWorkers.ready)
      .then(() => {
        clearTimeout(deadline);
        reload(true);
      })
      .catch(() => reload(false));
  }

  /** Whether this tab has not failed yet, and can remember failing (else: no isolation at all). */
  function mayTryInThisTab() {
    try {
      if (sessionStorage.getItem(UNAVAILABLE)) return false;
      sessionStorage.setItem(UNAVAILABLE, "");
      return true;
    } catch {
      return false; // no session storage (storage blocked): service workers are blocked with it
    }
  }
}
