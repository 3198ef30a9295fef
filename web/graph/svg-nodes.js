// What the graph tools share about a Graphviz drawing: finding a node, changing its text, numbers.

// How scratchgrad.graph writes a Value's grad field ("grad 0.5000"): hooks/pyodide_runtime.py
// writes its constants into the bundle.
/* global GRAPH_GRAD_FIELD, GRAPH_FIELD_DIGITS */

const SVG_NS = "http://www.w3.org/2000/svg";

/** The <g class="node"> of the Value named `name` (graph-view.js set data-sg-node), or null. */
export function nodeGroup(svg, name) {
  return [...svg.querySelectorAll("g.node")].find((group) => group.dataset.sgNode === name) ?? null;
}

/** A new SVG element with `attributes`. */
export function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** The text of a record's grad field ("grad 0.0000"), as scratchgrad.graph writes it. */
export function gradText(group) {
  return [...group.querySelectorAll("text")].find((text) => text.textContent.startsWith(GRAPH_GRAD_FIELD)) ?? null;
}

/** What a grad field reads for the gradient `grad`, as scratchgrad.graph writes it. */
export function gradField(grad) {
  return `${GRAPH_GRAD_FIELD}${Number(grad).toFixed(GRAPH_FIELD_DIGITS)}`;
}
