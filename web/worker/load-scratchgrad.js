// Start-up shared by every worker that runs the package: Pyodide plus the scratchgrad wheel.
//
// The wheel is listed in the site's own lock file (hooks/pyodide_runtime.py), so
// loadPackage("scratchgrad") checks its integrity and needs no other host. The code blocks'
// worker (python-worker.js) and the playground's worker (../playground/playground-worker.js)
// both start this way.

/** Load Pyodide from `indexURL` with the lock file at `lockFileURL` (absolute URLs), then the package. */
export async function loadScratchgrad({ indexURL, lockFileURL }) {
  let pyodide;
  try {
    const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
    // `packages`: the wheel downloads while Pyodide boots, instead of after it.
    pyodide = await loadPyodide({ indexURL, lockFileURL, packages: ["scratchgrad"] });
  } catch (error) {
    // Pyodide's own messages ("Program terminated with exit(1)") do not say what failed.
    throw new Error(`the Python runtime did not load from ${indexURL} (${error.message})`);
  }
  if ("scratchgrad" in pyodide.loadedPackages) return pyodide;
  const loadErrors = []; // loading it again, to learn why it failed
  await pyodide.loadPackage("scratchgrad", {
    messageCallback: () => {},
    errorCallback: (message) => loadErrors.push(message),
  });
  // loadPackage reports some failures only through errorCallback, never by throwing.
  if (!("scratchgrad" in pyodide.loadedPackages)) {
    throw new Error(`the scratchgrad package did not load: ${loadErrors.join(" ") || "no reason given"}`);
  }
  return pyodide;
}
