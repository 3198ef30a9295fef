// A module Web Worker that turns DOT text into SVG with Graphviz compiled to WebAssembly.
//
// It runs apart from the Python worker so that drawing never waits for (or delays) Python,
// and apart from the page so that laying out a large graph never freezes it. The page loads
// it (and the 1.2 MB Graphviz build inside it) only when a block first shows a graph.
//
// It speaks the site's one worker protocol (serve-requests.js): the request
// {id, type: "draw", dot} is answered {id, type: "done", svg} or {id, type: "failed", message}.

import { instance } from "@viz-js/viz";
import { serveRequests } from "./serve-requests.js";

const graphviz = instance();

async function draw({ dot }) {
  let result;
  try {
    result = (await graphviz).render(dot, { format: "svg", engine: "dot" });
  } catch (error) {
    throw new Error(`Graphviz failed: ${error.message}`, { cause: error });
  }
  if (result.status !== "success") {
    const reasons = result.errors.map((error) => error.message.trim()).join("; ");
    throw new Error(`Graphviz could not draw this graph: ${reasons}`);
  }
  return { svg: result.output };
}

serveRequests({ draw });
