// Starting a Python worker: create it and ask it to load Pyodide and the package.
//
// Both Python workers start this way: the code blocks' (python-runtime.js) and the playground's
// (../playground/playgrounds.js).

import { WorkerClient } from "./worker-client.js";
import { requireWebAssembly } from "./worker-failures.js";

const PYTHON_WORKER = "the Python worker";

/**
 * Create the module worker `files.workerURL` and send it the "start" request.
 * Returns {client, interruptBuffer, launchedAt, started}: `client` is the WorkerClient
 * (null if the worker could not be created); `started` resolves with what the worker reports
 * (the code blocks' worker: {pythonVersion, interruptible, startupMs, bootedFrom}) or rejects
 * with the reason (`workerDidNotRun` set when the worker script itself failed to run). With `interruptible`, `interruptBuffer` (an Int32Array on a SharedArrayBuffer)
 * exists when the page can share memory with the worker (canShareMemory): then Stop can interrupt Python instead of
 * restarting it.
 * @param {{workerURL: string, indexURL: string, lockFileURL: string}} files absolute URLs
 * @param {{name?: string, interruptible?: boolean, onNotice?: (message: object) => void}} options
 */
export function launchPythonWorker(files, { name = PYTHON_WORKER, interruptible = true, onNotice } = {}) {
  const launch = { client: null, interruptBuffer: null, launchedAt: performance.now(), started: null };
  try {
    requireWebAssembly();
    if (interruptible && canShareMemory()) {
      launch.interruptBuffer = new Int32Array(new SharedArrayBuffer(4));
    }
    launch.client = new WorkerClient(files.workerURL, { name, onNotice });
    launch.started = launch.client.request("start", {
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
