// Draws DOT text as an inline SVG element, using the graph drawing worker
// (../worker/graph-worker.js, started on first use).
//
// The SVG is Graphviz's output for DOT that the engine wrote, but the labels carry the
// reader's strings, so it is parsed as XML and pruned to drawing elements before it joins
// the page: no script, no event handler, no link can come through.

import { WorkerClient } from "../runtime/worker-client.js";

const GRAPH_WORKER = "the graph drawing worker";
// prettier-ignore
const DRAWING_ELEMENTS = new Set([
  "svg", "g", "title", "desc", "path", "polygon", "polyline", "ellipse", "circle",
  "rect", "line", "text", "tspan", "defs", "lineargradient", "radialgradient", "stop",
]);

export class GraphRenderer {
  #workerURL;
  #client = null;

  constructor(workerURL) {
    this.#workerURL = workerURL;
  }

  /**
   * Resolve with a sanitized <svg> element for `dot`, its size times `scale` (the build draws
   * graphs smaller than Graphviz's natural size); reject with a message for the reader.
   */
  async render(dot, scale = 1) {
    const { svg } = await this.#worker().request("draw", { dot });
    return scaled(sanitizedSvg(svg), scale);
  }

  #worker() {
    if (!this.#client) {
      const client = new WorkerClient(this.#workerURL, {
        name: GRAPH_WORKER,
        onError: () => {
          client.terminate();
          if (this.#client === client) this.#client = null; // the next drawing starts a fresh worker
        },
      });
      this.#client = client;
    }
    return this.#client;
  }
}

/** The scale at which `svg` is drawn: its width attribute over its viewBox width (1 if unknown). */
export function drawingScale(svg) {
  const width = parseFloat(svg?.getAttribute("width"));
  const viewBoxWidth = svg?.viewBox?.baseVal?.width;
  return width > 0 && viewBoxWidth > 0 ? width / viewBoxWidth : 1;
}

function scaled(svg, scale) {
  for (const name of ["width", "height"]) {
    const size = parseFloat(svg.getAttribute(name));
    if (size > 0) svg.setAttribute(name, `${(size * scale).toFixed(1)}pt`);
  }
  return svg;
}

export function sanitizedSvg(svgText) {
  const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length > 0) {
    throw new Error("Graphviz returned something that is not an SVG drawing");
  }
  for (const element of [root, ...root.querySelectorAll("*")]) {
    if (!DRAWING_ELEMENTS.has(element.localName.toLowerCase())) {
      element.remove();
      continue;
    }
    for (const attribute of [...element.attributes]) {
      const name = attribute.localName.toLowerCase();
      if (name.startsWith("on") || name === "href" || name === "style") {
        element.removeAttributeNode(attribute);
      }
    }
  }
  return document.importNode(root, true);
}
