// Run a piece of Python inside Pyodide under Node, with src/ mounted read-only and on sys.path.
//
//   node tests/pyodide/run_python.mjs "<python code>"
//
// Exit code: 0 when the code ran to its end, 1 when it raised, 70 when the WebAssembly
// runtime itself died (e.g. its stack overflowed): tests tell a crash from an exception.

import { exitCodeOfPython, startPyodide } from "./node_pyodide.mjs";

const [code] = process.argv.slice(2);
if (code === undefined) {
  console.error('usage: node tests/pyodide/run_python.mjs "<python code>"');
  process.exit(2);
}
const pyodide = await startPyodide();
process.exit(exitCodeOfPython(pyodide, code));
