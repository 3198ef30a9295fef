// Start-up shared by every worker that runs the package: Pyodide plus the scratchgrad wheel.
//
// The wheel is listed in the site's own lock file (hooks/pyodide_runtime.py), so
// loadPackage("scratchgrad") checks its integrity and needs no other host. The code blocks'
// worker (python-worker.js) and the playground's worker (playground-worker.js)
// both start this way. Pyodide itself boots from the memory snapshot this browser saved on its
// first visit when there is one (pyodide-snapshot.js), and from its files otherwise.

import { snapshotStore } from "./pyodide-snapshot.js";

/**
 * Load Pyodide from `indexURL` with the lock file at `lockFileURL` (absolute URLs), then the package.
 * Resolves with {pyodide, bootedFrom}: "snapshot" or "files".
 */
export async function loadScratchgrad({ indexURL, lockFileURL }) {
  const { loadPyodide, version } = await loadingFrom(indexURL, () => import(`${indexURL}pyodide.mjs`));
  const snapshots = await snapshotStore({ version, indexURL, lockFileURL });
  const saved = await snapshots?.load().catch(() => null);
  if (saved) {
    try {
      const pyodide = await loadPyodide({ indexURL, lockFileURL, _loadSnapshot: saved });
      await installScratchgrad(pyodide);
      return { pyodide, bootedFrom: "snapshot" };
    } catch (error) {
      console.warn(`Pyodide's snapshot did not restore (${error.message}): booting from its files`);
      await snapshots.forget(); // the boot from the files makes a new one
    }
  }
  const makeSnapshot = snapshots !== null;
  const pyodide = await loadingFrom(indexURL, () =>
    loadPyodide({ indexURL, lockFileURL, _makeSnapshot: makeSnapshot }),
  );
  if (makeSnapshot) {
    const snapshot = pyodide.makeMemorySnapshot(); // before the package: only Pyodide's own state
    // Saved once this start-up is over: a task of its own, after the worker has answered.
    setTimeout(() => snapshots.save(snapshot).catch(() => {}), 0);
  }
  await installScratchgrad(pyodide);
  return { pyodide, bootedFrom: "files" };
}

/** Await `load()`; if it fails, say which runtime did not load. */
async function loadingFrom(indexURL, load) {
  try {
    return await load();
  } catch (error) {
    // Pyodide's own messages ("Program terminated with exit(1)") do not say what failed.
    throw new Error(`the Python runtime did not load from ${indexURL} (${error.message})`, { cause: error });
  }
}

async function installScratchgrad(pyodide) {
  const loadErrors = [];
  await pyodide.loadPackage("scratchgrad", {
    messageCallback: () => {},
    errorCallback: (message) => loadErrors.push(message),
  });
  // loadPackage reports some failures only through errorCallback, never by throwing.
  if (!("scratchgrad" in pyodide.loadedPackages)) {
    throw new Error(`the scratchgrad package did not load: ${loadErrors.join(" ") || "no reason given"}`);
  }
}
