// Inlined at the top of the <head> of every page with runnable blocks (hooks/pyodide_runtime.py):
// start loading Python before the browser parses the chapter. runner.js adopts the worker.
//
// Not on a first visit that the service worker is about to reload (its script comes just before
// this one): that page is thrown away, and a worker started there would only compete with the
// page that replaces it. Should the reload not come after all, runner.js starts Python as usual.
//
// The script element carries the runner's address, relative to the page, in data-runner.

import { launchEarly } from "../runtime/launch-worker.js";
import { pythonFiles } from "../runtime/site-files.js";

/** What coi-serviceworker checks before it registers and reloads a page (its `coi` switch included). */
function isolationReloadComing() {
  return (
    globalThis.crossOriginIsolated === false &&
    globalThis.isSecureContext &&
    navigator.serviceWorker !== undefined &&
    !navigator.serviceWorker.controller &&
    (globalThis.coi?.shouldRegister?.() ?? true)
  );
}

if (!isolationReloadComing()) {
  launchEarly(pythonFiles(new URL(document.currentScript.dataset.runner, location.href)));
}
