// The types of the messages between the page and its workers, named once for both sides.
//
// Pyodide's worker pattern: the page sends {id, type, ...}; the worker answers that id once,
// DONE or FAILED (../worker/serve-requests.js, read by worker-client.js), and may stream OUTPUT
// (printed text) and DISPLAY (a drawing) for the same id before it answers
// (../worker/python-worker.js, read by python-runtime.js). Python sends none of them: these
// messages are between two JavaScript threads, so this module is their one owner.

export const DONE = "done";
export const FAILED = "failed";
export const OUTPUT = "output";
export const DISPLAY = "display";
