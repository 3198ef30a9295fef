// Whether this page is about to be thrown away: on a first visit, ../isolation/coi-serviceworker.js
// (the first script of every page) registers the service worker and then reloads the page.
// Nothing should start Python in such a page: the worker would only compete with the page that
// replaces it. The service worker script marks the page; this reads the mark.

const RELOAD_COMING = Symbol.for("scratchgrad.isolationReloadComing");

/** True while the isolation reload is coming (false again if registering failed). */
export function isolationReloadComing() {
  return globalThis[RELOAD_COMING] === true;
}
