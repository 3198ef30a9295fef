// Draws DOT text as an inline SVG element, using the Graphviz worker (started on first use).
//
// The SVG is Graphviz's output for DOT that the engine wrote, but the labels carry the
// reader's strings, so it is parsed as XML and pruned to drawing elements before it joins
// the page: no script, no event handler, no link can come through.

import { workerFailure } from "../runtime/worker-failures.js";

const DRAWING_ELEMENTS = new Set([
  "svg", "g", "title", "desc", "path", "polygon", "polyline", "ellipse", "circle",
  "rect", "line", "text", "tspan", "defs", "lineargradient", "radialgradient", "stop",
]);

export class GraphRenderer {
  #workerURL;
  #worker = null;
  #pending = new Map();
  #nextId = 1;

  constructor(workerURL) {
    this.#workerURL = workerURL;
  }

  /**
   * Resolve with a sanitized <svg> element for `dot`, its size times `scale` (the build draws
   * graphs smaller than Graphviz's natural size); reject with a message for the reader.
   */
  render(dot, scale = 1) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, ({ svg, error }) => {
        this.#pending.delete(id);
        if (error) reject(new Error(error));
        else resolve(scaled(sanitizedSvg(svg), scale));
      });
      this.#ensureWorker().postMessage({ id, dot });
    });
  }

  #ensureWorker() {
    if (!this.#worker) {
      this.#worker = new Worker(this.#workerURL, { type: "module" });
      this.#worker.onmessage = ({ data }) => this.#pending.get(data.id)?.(data);
      this.#worker.onerror = (event) => {
        const message = workerFailure("the graph drawing worker", event, this.#workerURL);
        for (const answer of this.#pending.values()) answer({ error: message });
        this.#worker = null;
      };
    }
    return this.#worker;
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
