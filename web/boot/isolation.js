// Whether this page is about to be thrown away: on a first visit, ../isolation/coi-serviceworker.js
// (the first script of every page) registers the service worker and then reloads the page.
// Nothing should start Python in such a page: the worker would only compete with the page that
// replaces it, and in Firefox its half-loaded Pyodide fails visibly as the reload aborts it.
// The service worker script marks the page and, should registering fail (a private window),
// takes the mark back and announces it; this module reads the mark and hears the announcement.

const RELOAD_COMING = Symbol.for("scratchgrad.isolationReloadComing");
const RELOAD_CANCELLED = "scratchgrad:isolation-reload-cancelled";

/** True while the isolation reload is coming (false again if registering failed). */
export function isolationReloadComing() {
  return globalThis[RELOAD_COMING] === true;
}

/**
 * Call `callback` now, or, in a page the isolation reload will replace, only if that reload is
 * cancelled (then the page runs without isolation). The reload itself ends the page.
 */
export function unlessReloadComes(callback) {
  if (!isolationReloadComing()) callback();
  else globalThis.addEventListener(RELOAD_CANCELLED, () => callback(), { once: true });
}
