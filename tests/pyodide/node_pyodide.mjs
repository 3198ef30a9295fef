// Start Pyodide (npm `pyodide`, CPython compiled to WebAssembly) under Node with the
// repository's sources mounted read-only and pure-Python wheels unpacked from a folder.
// Shared by the test runner (tests/pyodide/run_pytest.mjs) and the benchmarks.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where the repository appears inside Pyodide's file system. */
export const MOUNT = "/scratchgrad";

const EROFS = 69; // Emscripten's errno for "read-only file system"

/**
 * Make every NODEFS mount of this Pyodide read-only: Python can read the host's
 * files but any write, create, rename or delete fails with OSError(EROFS).
 * NODEFS has no read-only option, and every node it creates shares one table of
 * operations, so wrapping that table covers the whole mount.
 */
function makeNodefsReadOnly(FS) {
  const { node_ops: nodeOps, stream_ops: streamOps } = FS.filesystems.NODEFS;
  const refuse = () => {
    throw new FS.ErrnoError(EROFS);
  };
  for (const op of ["setattr", "mknod", "rename", "unlink", "rmdir", "symlink"]) nodeOps[op] = refuse;
  streamOps.write = refuse;
  const open = streamOps.open;
  streamOps.open = (stream) => {
    const O_ACCMODE = 3; // O_RDONLY is 0: any other access mode writes
    if ((stream.flags & O_ACCMODE) !== 0) refuse();
    return open(stream);
  };
}

/** Host folder `hostPath` (relative to the repository) appears at MOUNT/`hostPath`, read-only. */
function mountReadOnly(pyodide, hostPath) {
  const target = `${MOUNT}/${hostPath}`;
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.join(REPO, hostPath) }, target);
}

/**
 * A ready Pyodide with `folders` of the repository mounted read-only under MOUNT,
 * `files` copied in (small files such as pyproject.toml: NODEFS mounts folders only),
 * every wheel of `wheelDirs` unpacked into site-packages, and MOUNT/src first on sys.path.
 * Python's stdout and stderr go straight to Node's, so pytest's live output stays live.
 */
export async function startPyodide({ folders = ["src"], files = [], wheelDirs = [] } = {}) {
  const pyodide = await loadPyodide();
  const passThrough = (stream) => ({ write: (bytes) => (stream.write(bytes), bytes.length) });
  pyodide.setStdout(passThrough(process.stdout));
  pyodide.setStderr(passThrough(process.stderr));
  makeNodefsReadOnly(pyodide.FS);
  for (const folder of folders) mountReadOnly(pyodide, folder);
  for (const file of files) pyodide.FS.writeFile(`${MOUNT}/${file}`, fs.readFileSync(path.join(REPO, file)));
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const dir of wheelDirs) {
    const wheels = fs.readdirSync(dir).filter((name) => name.endsWith(".whl"));
    if (wheels.length === 0) throw new Error(`no .whl files in ${dir}: run make to download them`);
    for (const wheel of wheels.sort()) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(dir, wheel)));
      pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
    }
  }
  pyodide.runPython(`
import os, sys
sys.dont_write_bytecode = True  # the mounts are read-only: no __pycache__ next to the sources
sys.path.insert(0, "${MOUNT}/src")
os.chdir("${MOUNT}")
`);
  return pyodide;
}

/** Exit code of a run whose WebAssembly runtime itself died (sysexits' EX_SOFTWARE). */
export const RUNTIME_DIED = 70;

/**
 * Run Python `code` and return the exit code it stands for: the int the code evaluates to
 * (0 if it evaluates to None), 1 if it raised (the traceback is printed), or RUNTIME_DIED
 * if Pyodide suffered a fatal error such as a WebAssembly stack overflow.
 */
export function exitCodeOfPython(pyodide, code) {
  try {
    // runPython, not runPythonAsync: a fatal error inside the async variant escapes as an
    // unhandled rejection instead of reaching this catch.
    return pyodide.runPython(code) ?? 0;
  } catch (error) {
    if (error.pyodide_fatal_error) {
      console.error(`Pyodide died: ${error}`);
      return RUNTIME_DIED;
    }
    console.error(String(error));
    return 1;
  }
}
