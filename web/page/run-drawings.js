// What a run of a block draws into its output: graphs (rendered by the graph worker), each graph's
// study (backward step by step, the gradient check) and training curves.

import { drawCurve } from "./curve-figure.js";

// The kinds of drawings, the accessible name of a drawn graph: defined by the Python modules
// scratchgrad.page.blocks and hooks/helpers/figures.py; hooks/pyodide_runtime.py writes them into the bundle.
/* global BLOCK_DOT_MIME_TYPE, BLOCK_STUDY_MIME_TYPE, BLOCK_CURVE_MIME_TYPE, GRAPH_NAME_FORMAT, GRAPH_NAME_SEPARATOR */

/** A drawn graph as an image whose name lists its boxes, as the build names its drawings. */
function withGraphName(svg) {
  const nodes = svg.querySelectorAll("g.node").length;
  const texts = [...new Set([...svg.querySelectorAll("text")].map((text) => text.textContent.trim()))];
  const labels = texts.filter(Boolean).join(GRAPH_NAME_SEPARATOR);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", GRAPH_NAME_FORMAT.replace("{nodes}", String(nodes)).replace("{labels}", labels));
  return svg;
}

/**
 * The onDisplay(mimeType, data, label) of one run that writes into `output` (an OutputView):
 * graphs are rendered by `graphs` at `scale`, and each rendering's promise goes into `drawings`,
 * so the run is over once they settle. A study belongs to the graph drawn just before it.
 */
export function drawInto(output, drawings, { graphs, scale }) {
  let lastFigure = null;
  const draw = (dot, label) => {
    const figure = output.figure("graph", label);
    lastFigure = figure;
    return graphs
      .render(dot, scale)
      .then(
        (svg) => figure.replaceChildren(withGraphName(svg)),
        (error) => {
          figure.textContent = error.message;
          figure.classList.add("sg-figure--failed");
        },
      )
      .finally(() => figure.removeAttribute("aria-busy"));
  };
  return (mimeType, data, label) => {
    if (mimeType === BLOCK_DOT_MIME_TYPE) drawings.push(draw(data, label));
    if (mimeType === BLOCK_STUDY_MIME_TYPE) lastFigure?.setAttribute("data-sg-study", data);
    if (mimeType === BLOCK_CURVE_MIME_TYPE) drawCurve(output.figure("curve", label), JSON.parse(data));
  };
}
