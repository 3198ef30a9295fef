// W1 inside Pyodide (CPython 3.14 on WebAssembly) under Node, micrograd and scratchgrad
// interleaved exactly as on CPython (benchmarks/w1.py runs unchanged in both), where a
// scratchgrad step spends its time there; and first, while the heap is fresh, the
// 1,000,000-node chain (benchmarks/chain.py's timed_chain), with WebAssembly memory in MiB
// (it only grows, so its size afterwards is the peak).
//
//   node benchmarks/pyodide_w1.mjs [repeats] [steps]
//
// src/ and benchmarks/ are mounted read-only; micrograd 0.1.0 comes from its PyPI wheel,
// which `make bench` downloads into build/bench-wheels. Prints one line of JSON.

import path from "node:path";
import { exitCodeOfPython, REPO, startPyodide } from "../tests/pyodide/node_pyodide.mjs";

const [repeats = "2", steps = "20"] = process.argv.slice(2);
const wheelDir = process.env.BENCH_WHEELS ?? path.join(REPO, "build", "bench-wheels");

const pyodide = await startPyodide({ folders: ["src", "benchmarks"], wheelDirs: [wheelDir] });
process.exit(
  exitCodeOfPython(
    pyodide,
    `
import json, sys
sys.path.insert(0, "benchmarks")
import chain, w1
import pyodide_js
from js import process

def wasm_mib():
    return pyodide_js._module.HEAPU8.length / 2**20

memory_before = wasm_mib()
deep = chain.timed_chain(chain.CHAIN_LENGTH, memory_mib=wasm_mib)
deep.update(memory_before_mib=memory_before, memory_peak_mib=wasm_mib())

def node_cpu_seconds():
    usage = process.cpuUsage()  # microseconds of CPU time of the whole Node process
    return (usage.user + usage.system) / 1e6

w1.cpu_clock = node_cpu_seconds
result = w1.interleaved(repeats=${Number(repeats)}, steps=${Number(steps)})
without_gc = {name: w1.median_step_cpu_without_gc(name) for name in w1.ENGINES}
phases = w1.scratchgrad_phases()
print(json.dumps({
    "python": sys.version.split()[0], "platform": sys.platform, **result,
    "median_step_cpu_seconds_without_gc": without_gc, "phases": phases, "chain": deep,
}))
`,
  ),
);
