// Where the site keeps what the Python worker loads (web/runtime/site-files.js).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

// Written into the bundle by hooks/pyodide_runtime.py; here, a self-hosted Pyodide and a build id.
globalThis.PYODIDE_INDEX_URL = null;
globalThis.RUNTIME_BUILD_ID = "b1";
const { pythonFiles } = await import("../../../web/runtime/site-files.js");

describe("pythonFiles", () => {
  test("names the worker beside the runner, Pyodide's files and the lock file of this build", () => {
    assert.deepEqual(pythonFiles("https://example.org/site/javascripts/runner.js"), {
      workerURL: "https://example.org/site/javascripts/python-worker.js",
      indexURL: "https://example.org/site/pyodide/",
      lockFileURL: "https://example.org/site/pyodide/pyodide-lock.json?build=b1",
    });
  });

  test("takes Pyodide from the CDN that mkdocs.yml chose, and the lock file still from the site", () => {
    globalThis.PYODIDE_INDEX_URL = "https://cdn.example.org/pyodide/";
    try {
      const files = pythonFiles("https://example.org/javascripts/runner.js");
      assert.equal(files.indexURL, "https://cdn.example.org/pyodide/");
      assert.equal(files.lockFileURL, "https://example.org/pyodide/pyodide-lock.json?build=b1");
    } finally {
      globalThis.PYODIDE_INDEX_URL = null;
    }
  });
});
