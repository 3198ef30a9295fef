// Start-up shared by every worker that runs the package: Pyodide plus the scratchgrad wheel.
//
// The wheel is listed in the site's own lock file (hooks/pyodide_runtime.py), which names its
// file and SHA-256, so it needs no other host. The worker reads the lock file itself, as it
// starts, and fetches the wheel (the browser checks it against that SHA-256) while Pyodide
// boots; once Pyodide is up, the wheel is unpacked into site-packages. That is what
// pyodide.loadPackage("scratchgrad") does, without its package manager's round trips: it fetched
// the wheel only after the boot, and took ~130 ms more to install the same few files.
// The code blocks' worker (python-worker.js) and the playground's worker
// (playground-worker.js) both start this way. Pyodide itself boots from the memory snapshot
// this browser saved on its first visit when there is one (pyodide-snapshot.js), and from its
// files otherwise.

import { snapshotStore } from "./pyodide-snapshot.js";

/**
 * Load Pyodide from `indexURL` with the lock file at `lockFileURL` (absolute URLs), then the package.
 * Resolves with {pyodide, bootedFrom}: "snapshot" or "files".
 */
export async function loadScratchgrad({ indexURL, lockFileURL }) {
  const lockFile = fetchLockFile(lockFileURL);
  const wheel = lockFile.then((lock) => fetchWheel(lock, lockFileURL));
  wheel.catch(() => {}); // awaited below, once Pyodide is up: a failure is reported there
  const { loadPyodide, version } = await loadingFrom(indexURL, () => import(`${indexURL}pyodide.mjs`));
  // Pyodide reads the same lock file: given its contents, it does not fetch it again.
  const options = { indexURL, lockFileContents: await lockFile, packageBaseUrl: new URL(".", lockFileURL).href };
  const snapshots = await snapshotStore({ version, indexURL, lockFileURL });
  const saved = await snapshots?.load().catch(() => null);
  if (saved) {
    const pyodide = await restoreSnapshot(loadPyodide, { ...options, _loadSnapshot: saved }, wheel);
    if (pyodide) return { pyodide, bootedFrom: "snapshot" };
    await snapshots.forget(); // the boot from the files makes a new one
  }
  const makeSnapshot = snapshots !== null;
  const pyodide = await loadingFrom(indexURL, () => loadPyodide({ ...options, _makeSnapshot: makeSnapshot }));
  if (makeSnapshot) {
    const snapshot = pyodide.makeMemorySnapshot(); // before the package: only Pyodide's own state
    // Saved once this start-up is over: a task of its own, after the worker has answered.
    setTimeout(() => snapshots.save(snapshot).catch(() => {}), 0);
  }
  installScratchgrad(pyodide, await wheel);
  return { pyodide, bootedFrom: "files" };
}

/**
 * Pyodide restored from a snapshot (in `options`) with the package installed, or null when the
 * snapshot does not restore: then Pyodide boots from its files. A wheel that did not load is
 * not the snapshot's fault: that error goes to the reader.
 */
async function restoreSnapshot(loadPyodide, options, wheel) {
  const notRestored = (error) => {
    console.warn(`Pyodide's snapshot did not restore (${error.message}): booting from its files`);
    return null;
  };
  const pyodide = await loadPyodide(options).catch(notRestored);
  if (!pyodide) return null;
  const bytes = await wheel;
  try {
    installScratchgrad(pyodide, bytes);
    return pyodide;
  } catch (error) {
    return notRestored(error);
  }
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

/** The lock file, parsed. */
async function fetchLockFile(lockFileURL) {
  const response = await fetch(lockFileURL).catch((error) => {
    throw new Error(`the lock file did not load from ${lockFileURL} (${error.message})`, { cause: error });
  });
  if (!response.ok) throw new Error(`the lock file did not load from ${lockFileURL} (HTTP ${response.status})`);
  return response.json();
}

/** The scratchgrad wheel's bytes, checked by the browser against the SHA-256 in the lock file. */
async function fetchWheel(lock, lockFileURL) {
  const entry = lock.packages?.scratchgrad;
  if (!entry?.file_name || !entry.sha256) {
    throw new Error(`the scratchgrad package did not load: the lock file ${lockFileURL} does not list it`);
  }
  const wheelURL = new URL(entry.file_name, lockFileURL).href;
  const fails = (reason) => new Error(`the scratchgrad package did not load from ${wheelURL} (${reason})`);
  const response = await fetch(wheelURL, { integrity: `sha256-${base64(entry.sha256)}` }).catch(() => {
    throw fails("it could not be fetched, or its SHA-256 is not the one in the lock file");
  });
  if (!response.ok) throw fails(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Unpack the wheel into site-packages, where loadPackage would put it. */
function installScratchgrad(pyodide, wheel) {
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

/** A hex digest as the base64 that Subresource Integrity expects. */
function base64(hex) {
  const bytes = hex.match(/../g).map((pair) => parseInt(pair, 16));
  return btoa(String.fromCharCode(...bytes));
}
