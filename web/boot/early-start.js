// Inlined at the top of the <head> of every page with runnable blocks (hooks/pyodide_runtime.py):
// start loading Python before the browser parses the chapter. runner.js adopts the worker.
//
// The script element carries the runner's address, relative to the page, in data-runner.

import { launchEarly } from "../runtime/launch-worker.js";
import { pythonFiles } from "../runtime/site-files.js";

launchEarly(pythonFiles(new URL(document.currentScript.dataset.runner, location.href)));
