// What keeps a worker from running, in words for the reader: shared by the Python worker, the
// playground's worker and the graph drawing worker.

/** Throw, saying why, if this browser cannot run Python at all. */
export function requireWebAssembly() {
  if (typeof WebAssembly !== "object") {
    throw new Error("this browser has no WebAssembly, which Python in the page needs");
  }
}

/** What to tell the reader when `worker`'s script fails (the error event is handled here). */
export function workerFailure(worker, event, workerURL) {
  event.preventDefault();
  return `${worker} could not run (${event.message || workerURL})`;
}
