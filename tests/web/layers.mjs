// The floors of web/: a module imports only from its own folder or from a floor below it, and no
// import runs in a circle. `make lint` runs this file; tests/web/layers.test.mjs checks the check.
//
// The entry point stands on top, the features below it, then what several features share, then
// the workers and the runtime that starts them. A feature that needs another feature's module is
// the sign that the module belongs in web/shared/.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Top floor first; the folders (or the top-level entry file) on each floor. */
export const FLOORS = [
  ["main.js"],
  ["page", "exercises", "playground", "offline", "search"],
  ["graph"],
  ["shared"],
  ["worker"],
  ["runtime", "boot"],
  ["service-worker"],
];

const IMPORT = /(?:import|export)\s*(?:[^"'`;]*?\sfrom\s*)?\(?\s*"(\.{1,2}\/[^"]+)"/g;

/** The room of a file of web/ ("page/x.js" → "page", "main.js" → "main.js"). */
function room(file) {
  return file.includes("/") ? file.split("/")[0] : file;
}

function floorOf(file) {
  const index = FLOORS.findIndex((rooms) => rooms.includes(room(file)));
  if (index < 0) throw new Error(`web/${file} stands in no floor of tests/web/layers.mjs: add its folder to FLOORS`);
  return index;
}

/** {file: [files it imports]}, paths relative to web/, from {file: source text}. */
export function importsOf(files) {
  const graph = {};
  for (const [file, text] of Object.entries(files)) {
    graph[file] = [...text.matchAll(IMPORT)]
      .map(([, specifier]) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
      .filter((target) => target in files);
  }
  return graph;
}

/** Every import that runs up a floor or sideways into another room of the same floor, as "a -> b". */
export function upwardImports(graph) {
  const wrong = [];
  for (const [file, targets] of Object.entries(graph)) {
    const floor = floorOf(file);
    for (const target of targets) {
      const sideways = floorOf(target) === floor && room(target) !== room(file);
      if (floorOf(target) < floor || sideways) wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong.sort();
}

/** The import cycles of `graph`, each once, as the files around it. */
export function cycles(graph) {
  const found = [];
  const seen = new Set();
  const visit = (file, trail) => {
    for (const target of graph[file] ?? []) {
      const at = trail.indexOf(target);
      if (at >= 0) {
        const cycle = trail.slice(at);
        const key = [...cycle].sort().join(" ");
        if (!seen.has(key)) {
          seen.add(key);
          found.push(cycle);
        }
      } else if (trail.length < 50) visit(target, [...trail, target]);
    }
  };
  for (const file of Object.keys(graph)) visit(file, [file]);
  return found;
}

function readWeb(root) {
  const files = {};
  for (const entry of readdirSync(root, { recursive: true })) {
    if (/\.m?js$/.test(entry)) files[entry.split(path.sep).join("/")] = readFileSync(path.join(root, entry), "utf8");
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web");
  const graph = importsOf(readWeb(web));
  const problems = [
    ...upwardImports(graph).map((edge) => `runs up or sideways: ${edge}`),
    ...cycles(graph).map((cycle) => `circle: ${[...cycle, cycle[0]].join(" -> ")}`),
  ];
  if (problems.length) {
    console.error(`web/'s imports break its floors (tests/web/layers.mjs):\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
}
