// Starting the Python worker: create it and ask it to load Pyodide and the package.
//
// A page with runnable blocks starts it from a tiny inline script at the top of its <head>
// (../boot/early-start.js), before the browser has parsed the chapter or loaded runner.js;
// PythonRuntime adopts that worker when runner.js arrives. Measured on a long chapter, the
// worker is launched ~300 ms sooner (what that saves depends on spare cores and the network:
// benchmarks/README.md). Any later start (a page reached by instant navigation, a restart)
// launches from PythonRuntime directly.

import { requireWebAssembly, workerFailure } from "./worker-failures.js";

export const PYTHON_WORKER = "the Python worker";
const START_REQUEST_ID = 0; // PythonRuntime numbers its own requests from 1
const EARLY_LAUNCH = Symbol.for("scratchgrad.earlyLaunch");

/**
 * Create the module worker and send it the "start" request.
 * Returns {files, worker, interruptBuffer, launchedAt, started}: `started` resolves with what
 * the worker reports ({pythonVersion, interruptible, startupMs, bootedFrom}) or rejects with the
 * reason (`workerDidNotRun` set when the worker script itself failed to run).
 * `interruptBuffer` (an Int32Array on a SharedArrayBuffer) exists only when the page can share
 * memory with the worker: then Stop can interrupt Python instead of restarting it.
 */
export function launchPythonWorker(files) {
  const launch = { files, worker: null, interruptBuffer: null, launchedAt: performance.now(), started: null };
  try {
    requireWebAssembly();
    launch.interruptBuffer = canShareMemory() ? new Int32Array(new SharedArrayBuffer(4)) : null;
    launch.worker = new Worker(files.workerURL, { type: "module" }); // throws on a file:// page
    launch.started = answerToStart(launch.worker, files.workerURL);
    launch.worker.postMessage({
      id: START_REQUEST_ID,
      type: "start",
      indexURL: files.indexURL,
      lockFileURL: files.lockFileURL,
      sharedInterruptBuffer: launch.interruptBuffer?.buffer ?? null,
    });
  } catch (error) {
    launch.started = Promise.reject(error);
  }
  launch.started.catch(() => {}); // not a failure of its own: whoever adopts the launch reports it
  return launch;
}

/**
 * Whether the page can hand the worker a SharedArrayBuffer. Isolation alone does not say so:
 * WebKitGTK is crossOriginIsolated yet has no SharedArrayBuffer (and posts no shared memory to a
 * worker); without isolation, no engine posts one.
 */
function canShareMemory() {
  return typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated === true;
}

function answerToStart(worker, workerURL) {
  return new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.id !== START_REQUEST_ID) return;
      if (data.type === "done") resolve(data);
      else reject(new Error(data.message));
    });
    worker.addEventListener("error", (event) => {
      // The script did not run at all: WebKit answers so for a while after another Pyodide worker ended.
      reject(Object.assign(new Error(workerFailure(PYTHON_WORKER, event, workerURL)), { workerDidNotRun: true }));
    });
  });
}

/** Launch now and leave the launch for the page's PythonRuntime to adopt. */
export function launchEarly(files) {
  globalThis[EARLY_LAUNCH] = launchPythonWorker(files);
}

/** The early launch, once, if it loads the same files as `files`; otherwise null. */
export function adoptEarlyLaunch(files) {
  const launch = globalThis[EARLY_LAUNCH];
  delete globalThis[EARLY_LAUNCH];
  if (!launch) return null;
  const sameFiles = Object.keys(files).every((key) => launch.files[key] === files[key]);
  if (sameFiles) return launch;
  launch.worker?.terminate();
  return null;
}
