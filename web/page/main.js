// Entry point of the site's runner (bundled by hooks/pyodide_runtime.py into javascripts/runner.js).
//
// One Python worker serves the whole visit: Material's instant navigation swaps the page body
// without reloading this script, so Pyodide loads once and each page gets its own namespace.
// The worker starts in the background as soon as a page with runnable blocks is shown: this
// script is an async module in <head>, and such a page says so in its head
// (<meta name="scratchgrad-runnable">), so Python starts as soon as this script runs, not after
// the page's deferred scripts and its editors.
//
// PYODIDE_INDEX_URL is defined at bundle time: null for the self-hosted runtime next to this
// script (the default), or the CDN base URL chosen in mkdocs.yml. RUNTIME_BUILD_ID names the
// build of the scratchgrad wheel, so a browser never pairs a cached lock file with a new wheel.

/* global PYODIDE_INDEX_URL, RUNTIME_BUILD_ID */

import { GraphRenderer } from "../graph/graph-renderer.js";
import { PlaygroundPage } from "../playground/playgrounds.js";
import { PythonRuntime } from "../runtime/python-runtime.js";
import { PageController } from "./page-controller.js";

const here = import.meta.url;
const pyodideFiles = {
  indexURL: PYODIDE_INDEX_URL ?? new URL("../pyodide/", here).href,
  lockFileURL: new URL(`../pyodide/pyodide-lock.json?build=${RUNTIME_BUILD_ID}`, here).href,
};
const runtime = new PythonRuntime({ workerURL: new URL("python-worker.js", here).href, ...pyodideFiles });
const graphs = new GraphRenderer(new URL("graph-worker.js", here).href);
const playgroundWorker = { workerURL: new URL("playground-worker.js", here).href, ...pyodideFiles };
let page = null;
let playgrounds = null;

if (document.querySelector('meta[name="scratchgrad-runnable"]')) runtime.start().catch(() => {});

function showPage() {
  page?.dispose();
  playgrounds?.dispose();
  // Python starts first: turning the blocks into editors takes a while on a long page.
  if (document.querySelector(".sg-runnable")) runtime.start().catch(() => {}); // the status line reports it
  page = PageController.enhance(document, { runtime, graphs });
  playgrounds = PlaygroundPage.enhance(document, { worker: playgroundWorker, runtime });
}

// A handle for tests, benchmarks and curious readers in the browser console.
globalThis.scratchgrad = {
  runtime,
  get page() {
    return page;
  },
  get playgrounds() {
    return playgrounds;
  },
};

// The blocks are enhanced once the page is parsed; then Material's document$ (defined by its
// bundle at the end of <body>) announces every page that instant navigation brings.
function whenParsed(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback, { once: true });
  else callback();
}

whenParsed(() => {
  if (globalThis.document$) globalThis.document$.subscribe(showPage);
  else showPage();
});
