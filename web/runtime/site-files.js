// Where the site keeps what the Python worker loads, derived from the address of the runner.
//
// The runner (../main.js) names both Python workers' files here. PYODIDE_INDEX_URL and
// RUNTIME_BUILD_ID are defined at bundle time (hooks/pyodide_runtime.py): null for the
// self-hosted Pyodide next to the runner, or the CDN base URL chosen in mkdocs.yml; and the build
// of the scratchgrad wheel, so a browser never pairs a cached lock file with a new wheel.

/* global PYODIDE_INDEX_URL, RUNTIME_BUILD_ID */

/** The absolute URLs of the Python worker, the Pyodide files and the lock file. */
export function pythonFiles(runnerURL) {
  return {
    workerURL: new URL("python-worker.js", runnerURL).href,
    indexURL: PYODIDE_INDEX_URL ?? new URL("../pyodide/", runnerURL).href,
    lockFileURL: new URL(`../pyodide/pyodide-lock.json?build=${RUNTIME_BUILD_ID}`, runnerURL).href,
  };
}
