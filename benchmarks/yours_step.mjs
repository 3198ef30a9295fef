// One Playground step with "Engine: yours", part by part, inside Pyodide (CPython 3.14 on
// WebAssembly) under Node, as the playground's worker takes it (benchmarks/yours_step.py), and
// the worker's own JavaScript part of a frame: the decision-boundary grid (web/worker/boundary.js).
//
//   node benchmarks/yours_step.mjs [steps] [batch size]
//
// CPU time is Node's process.cpuUsage() (inside Pyodide time.process_time runs like a wall
// clock). Prints one line of JSON.

import { boundaryGrid } from "../web/worker/boundary.js";
import { exitCodeOfPython, startPyodide } from "../tests/pyodide/node_pyodide.mjs";

const [steps = "12", batchSize = ""] = process.argv.slice(2);

function gridCpuMs(layers, plane, times = 20) {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i += 1) boundaryGrid(layers, plane);
  const { user, system } = process.cpuUsage(start);
  return Math.round((user + system) / times / 10) / 100;
}

const pyodide = await startPyodide({ folders: ["src", "benchmarks"] });
globalThis.sgGridCpuMs = (layers, plane) => gridCpuMs(JSON.parse(layers), JSON.parse(plane));
process.exit(
  exitCodeOfPython(
    pyodide,
    `
import json, sys
sys.path.insert(0, "benchmarks")
import yours_step
from js import process, sgGridCpuMs

def node_cpu_seconds():
    usage = process.cpuUsage()  # microseconds of CPU time of the whole Node process
    return (usage.user + usage.system) / 1e6

yours_step.cpu_clock = node_cpu_seconds
result = yours_step.breakdown(steps=${Number(steps)}, batch_size=${batchSize ? Number(batchSize) : "None"})
session = yours_step.session_for(None)
result["cpu_ms"]["grid"] = sgGridCpuMs(json.dumps(session.stepper.layers()), json.dumps(session.stepper.plane()))
print(json.dumps(result))
`,
  ),
);
