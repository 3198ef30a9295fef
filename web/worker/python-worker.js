// The module Web Worker that owns Pyodide, so Python never runs on the page's main thread.
//
// Messages follow Pyodide's worker pattern: the page sends {id, type, ...}; every answer
// carries the same id. Replies to a "run" stream while the code runs:
//   {id, type: "output", stream: "stdout" | "stderr", text}   batched, at most ~20 per second
//   {id, type: "display", mimeType, data, label}                rich output (e.g. DOT text)
//   {id, type: "done", printed, raised, drawings, as_expected}  the run's outcome and verdict
//                                                               (scratchgrad.page.blocks.run_for_page)
// A "check" ({exercise, source, earlier}) answers {id, type: "done", raised: null, report}.
// Other requests answer once with {id, type: "done", ...} or {id, type: "failed", message}.
// A run that kills the interpreter itself (Pyodide's "fatal error", e.g. the WebAssembly stack
// overflowing) answers {id, type: "failed", fatal: true}: this worker is useless from then on.

import { pythonFiles } from "../runtime/site-files.js";
import { loadScratchgrad } from "./load-scratchgrad.js";
import { createOutputBatcher } from "./output-batcher.js";
import { serveRequests } from "./serve-requests.js";
import { DISPLAY, OUTPUT } from "../runtime/worker-messages.js";

let pyodide = null;
let runner = null;
let interruptBuffer = null;
const namespaces = new Map();
let currentRunId = null;

const post = (message) => self.postMessage(message);

// Python starts loading as soon as this worker runs, from the files the site keeps beside it
// (the page names them the same way: ../runtime/site-files.js). The page's "start" request
// reaches the worker only when the page's main thread hands it over, and on a first visit that
// thread is busy parsing the chapter: in 10 cold visits in Chromium, the request came 48 ms to
// 2.5 s after the worker was running, ~100 ms at the median (tests/browser/test_python_worker.py).
const ownFiles = pythonFiles(self.location.href);
const bootingAt = performance.now();
const booting = loadScratchgrad(ownFiles);
booting.catch(() => {}); // reported to the page as the answer to its "start" request
const output = createOutputBatcher((stream, text) => post({ id: currentRunId, type: OUTPUT, stream, text }));

async function start({ indexURL, lockFileURL, sharedInterruptBuffer }) {
  // Other files than its own: a page and a worker of two builds (a deploy during the visit). The
  // page's files win, as before this worker booted on its own; that boot is wasted, not harmful.
  const own = indexURL === ownFiles.indexURL && lockFileURL === ownFiles.lockFileURL;
  const started = own ? bootingAt : performance.now();
  let bootedFrom;
  ({ pyodide, bootedFrom } = await (own ? booting : loadScratchgrad({ indexURL, lockFileURL })));
  const sys = pyodide.pyimport("sys");
  runner = pyodide.pyimport("scratchgrad.page.blocks"); // what a block is: the same module as at build time
  runner.set_display((mimeType, data, label) => {
    output.flush(); // what was printed before the drawing appears above it
    post({ id: currentRunId, type: DISPLAY, mimeType, data, label });
  });
  pyodide.setStdout({ write: (bytes) => output.write("stdout", bytes) });
  pyodide.setStderr({ write: (bytes) => output.write("stderr", bytes) });
  interruptBuffer = sharedInterruptBuffer ? new Int32Array(sharedInterruptBuffer) : null;
  // Without a shared buffer nobody can write into this one, yet setting it matters: Python then
  // calls into JavaScript every few thousand bytecodes to read it, and that call is where
  // JavaScriptCore's worker.terminate() takes effect. A loop that never leaves WebAssembly keeps
  // a core busy there after Stop, even after the reader leaves the page.
  pyodide.setInterruptBuffer(interruptBuffer ?? new Int32Array(1));
  return {
    pythonVersion: sys.version.split(" ")[0],
    interruptible: interruptBuffer !== null,
    startupMs: Math.round(performance.now() - started),
    bootedFrom,
  };
}

function namespaceFor(name) {
  if (!namespaces.has(name)) namespaces.set(name, runner.new_namespace());
  return namespaces.get(name);
}

// `yours` (the reader's passing exercise code, JSON) asks for "Run with: my engine": their pieces
// stand in for the story's stages while the block runs (scratchgrad.page.reader_engine).
function run({ id, code, namespace, block, filename, graphs = [], curves = [], bug, yours }) {
  if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0); // a Stop that came too late
  currentRunId = id;
  const graphList = pyodide.toPy(graphs);
  const curveList = pyodide.toPy(curves);
  try {
    output.startRun();
    // undefined, not null, becomes None (Pyodide turns null into jsnull): no bug, no expected error.
    const named = block ? { page: block.page, index: block.index, expect: block.expect ?? undefined } : { filename };
    const engine = yours ? readerEngine(namespace, yours, bug) : undefined;
    const outcome = runner.run_for_page.callKwargs(code, {
      ...named,
      namespace: namespaceFor(namespace),
      graphs: graphList,
      curves: curveList,
      bug: bug ?? undefined,
      engine,
    });
    engine?.destroy();
    output.flush();
    return JSON.parse(outcome);
  } catch (error) {
    // run_block catches every Python exception, so whatever reaches here broke Pyodide itself.
    output.flush();
    throw Object.assign(new Error(`Python crashed: ${error.message}`), { fatal: true });
  } finally {
    graphList.destroy();
    curveList.destroy();
    currentRunId = null;
  }
}

/** The reader's engine for the blocks of `page`, kept by Python across runs (one class per page). */
function readerEngine(page, yours, bug) {
  const module = pyodide.pyimport("scratchgrad.page.reader_engine"); // afresh after a Restart
  try {
    return module.ReaderEngine.load(page, yours, bug ?? undefined);
  } finally {
    module.destroy();
  }
}

// The hidden checks of one exercise on the reader's code; the package's report as JSON.
// Its time limit and a Stop (KeyboardInterrupt) both end in a "stopped" report, not an error.
function check({ exercise, source, earlier }) {
  if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0); // a Stop that came too late
  const exercises = pyodide.pyimport("scratchgrad.exercises");
  const earlierPieces = pyodide.toPy(earlier ?? {});
  try {
    const report = exercises.check(exercise, source, earlierPieces);
    try {
      return { raised: null, report: JSON.parse(report.to_json()) };
    } finally {
      report.destroy();
    }
  } finally {
    earlierPieces.destroy();
    exercises.destroy();
  }
}

function restart() {
  for (const namespace of namespaces.values()) namespace.destroy();
  namespaces.clear();
  runner.forget_imported_packages().destroy(); // the page needs no list of the names
  return {};
}

serveRequests({ start, run, check, restart });
