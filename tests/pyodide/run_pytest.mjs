// Run the engine's test suite inside Pyodide (CPython 3.14 on WebAssembly) under Node.
//
//   node tests/pyodide/run_pytest.mjs [pytest arguments...]
//
// src/, tests/, docs/ (the playground tests read the panels embedded in its pages) and hooks/
// (tests/docs_pages.py finds a page's URL by the build's own rule, hooks/helpers/site_urls.py) are
// mounted read-only; pytest and hypothesis come from the wheels that
// `make` downloads into build/pyodide-wheels (or $PYODIDE_WHEELS). The exit code is
// pytest's, or 70 if the WebAssembly runtime itself died. Which tests run here, and why
// the others don't, is defined in pyodide_plugin.py.

import path from "node:path";
import { exitCodeOfPython, REPO, startPyodide } from "./node_pyodide.mjs";

const wheelDir = process.env.PYODIDE_WHEELS ?? path.join(REPO, "build", "pyodide-wheels");

const pyodide = await startPyodide({
  folders: ["src", "tests", "docs", "hooks"],
  files: ["pyproject.toml", "README.md", "Makefile"],
  wheelDirs: [wheelDir],
});
pyodide.globals.set("pytest_args", pyodide.toPy(process.argv.slice(2)));
process.exit(
  exitCodeOfPython(
    pyodide,
    `
import sys
import pytest
sys.path.insert(0, "tests/pyodide")  # pyodide_plugin: what runs here and what does not
int(pytest.main([*pytest_args, "-p", "pyodide_plugin"]))
`,
  ),
);
