// A module Web Worker that turns DOT text into SVG with Graphviz compiled to WebAssembly.
//
// It runs apart from the Python worker so that drawing never waits for (or delays) Python,
// and apart from the page so that laying out a large graph never freezes it. The page loads
// it (and the 1.2 MB Graphviz build inside it) only when a block first shows a graph.
//
// Request {id, dot}; answer {id, svg} or {id, error}.

import { instance } from "@viz-js/viz";

const graphviz = instance();

self.onmessage = async ({ data: { id, dot } }) => {
  try {
    const result = (await graphviz).render(dot, { format: "svg", engine: "dot" });
    if (result.status === "success") {
      self.postMessage({ id, svg: result.output });
    } else {
      const reasons = result.errors.map((error) => error.message.trim()).join("; ");
      self.postMessage({ id, error: `Graphviz could not draw this graph: ${reasons}` });
    }
  } catch (error) {
    self.postMessage({ id, error: `Graphviz failed: ${error.message}` });
  }
};
