// Entry point of the site's runner (bundled by hooks/pyodide_runtime.py into javascripts/runner.js).
//
// One Python worker serves the whole visit: Material's instant navigation swaps the page body
// without reloading this script, so Pyodide loads once and each page gets its own namespace.
// (Once only, on a reader's very first visit, the first link loads its page in full: that page
// comes through the service worker, cross-origin isolated. ../isolation/coi-serviceworker.js)
// A page with runnable blocks starts Python once it has settled (./after-settling.js): Material has
// mounted it and the browser has a moment to spare; a reader who runs something first starts it
// then. A page reached by instant navigation, already mounted, starts it at its first idle moment.
//
// Each feature is its own chunk (esbuild's code splitting), imported only by a page that has it:
// the editors (CodeMirror, most of the weight) with runnable blocks or exercises, the playground
// with a panel. A page of prose loads this file and nothing else.

// The playground's CSS goes into runner.css, which every page links in <head>: imported by its
// chunk, it would arrive after the panel it styles.
import "./playground/playground.css";
import { materialIsComing, whenMaterialStarted } from "./boot/material-started.js";
import { GraphRenderer } from "./graph/graph-renderer.js";
import { showOfflineState } from "./offline/offline-status.js";
import { PythonRuntime } from "./runtime/python-runtime.js";
import { pythonFiles } from "./runtime/site-files.js";
import { letSearchStart } from "./search/search-gate.js";
import { afterSettling } from "./page/after-settling.js";
import { keepAccessible } from "./page/page-accessibility.js";

/** Each feature: the elements that call for it, and its module (fetched the first time). */
const FEATURES = {
  blocks: { selector: ".sg-runnable", load: () => import("./page/page-controller.js") },
  playgrounds: { selector: "div.sg-playground", load: () => import("./playground/playgrounds.js") },
  exercises: { selector: "section.sg-exercise, .sg-engine", load: () => import("./exercises/exercise-page.js") },
};

/** The elements of a page that need the code blocks' Python as soon as it is shown. */
const NEEDS_PYTHON = ".sg-runnable, section.sg-exercise";

const here = import.meta.url;
const pyodideFiles = pythonFiles(here);
const runtime = new PythonRuntime(pyodideFiles);
const graphs = new GraphRenderer(new URL("graph-worker.js", here).href);
const playgroundWorker = { ...pyodideFiles, workerURL: new URL("playground-worker.js", here).href };
let page = null;
let playgrounds = null;
let exercises = null;
let stopAccessibility = null;
let offline = null; // the footer's "Available offline" line and the new-version notice

let shown = 0; // counts the pages shown: a page left while its features loaded is not enhanced

/**
 * Show the page in the document: start its Python once `mounted` (a promise: Material has mounted
 * it) and the browser is idle, and enhance its blocks, exercises and playgrounds. Returns the
 * promise of Python's start (runtime.start()'s), or null for a page that needs no Python.
 */
function showPage(mounted) {
  const pythonStarted = document.querySelector(NEEDS_PYTHON)
    ? afterSettling(mounted).then(() => runtime.start())
    : null;
  pythonStarted?.catch(() => {}); // the status line, or a check, reports it
  enhance();
  return pythonStarted;
}

async function enhance() {
  const showing = ++shown;
  page?.dispose();
  playgrounds?.dispose();
  exercises?.dispose();
  stopAccessibility?.();
  page = playgrounds = exercises = null;
  stopAccessibility = keepAccessible(document.querySelector(".md-content") ?? document.body);
  offline?.showPage();
  const [blocks, panels, work] = await Promise.all(
    Object.values(FEATURES).map(({ selector, load }) => (document.querySelector(selector) ? load() : null)),
  );
  if (showing !== shown) return;
  page = blocks?.PageController.enhance(document, { runtime, graphs }) ?? null;
  playgrounds = panels?.PlaygroundPage.enhance(document, { worker: playgroundWorker, runtime }) ?? null;
  exercises = work?.ExercisePage.enhance(document, { runtime, graphs }) ?? null;
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
  get exercises() {
    return exercises;
  },
};

// The blocks are enhanced once the page is parsed; then Material's document$ announces every page
// that instant navigation brings. Material's bundle runs after the page's first frame
// (../boot/material-after-paint.js), so its document$ may come after this page is shown: the page
// it first announces is this one, enhanced already.
// Material's search builds its index once the first page's Python has started, so as not to slow
// that start-up (../search/held-search.js).
function whenParsed(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback, { once: true });
  else callback();
}

whenParsed(() => {
  offline = showOfflineState();
  // Material's document$ announces this page when Material has mounted it, then each page
  // instant navigation brings, mounted already. A page without Material is mounted once parsed.
  const mounted = new Promise((resolve) => {
    if (!materialIsComing()) resolve();
    whenMaterialStarted(() => {
      let first = true;
      globalThis.document$?.subscribe(() => {
        if (!first) showPage(Promise.resolve());
        first = false;
        resolve();
      });
    });
  });
  letSearchStart(showPage(mounted) ?? Promise.resolve());
});
