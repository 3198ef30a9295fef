// A training run's loss curve under a block (its curve= option; scratchgrad.page.blocks.show_curve).
//
// The numbers come from the build (data-sg-points, with the words a reader without JavaScript
// reads) or from a run in the worker. The playground's LossChart draws them — loss solid, accuracy
// dashed — so a chapter's curve reads like the panel's; it is redrawn when the column's width or
// the colour scheme changes.

import { LossChart } from "../shared/loss-chart.js";

/**
 * Draw `figure`'s curve as a chart, once: `points` is {loss: [...], accuracy: [...] | null}
 * (scratchgrad.page.blocks.CURVE_MIME_TYPE), by default the build's, from data-sg-points.
 */
export function drawCurve(figure, points = JSON.parse(figure.dataset.sgPoints ?? "null")) {
  if (!points || figure.dataset.sgEnhanced !== undefined) return;
  figure.dataset.sgEnhanced = "";
  const canvas = document.createElement("canvas");
  canvas.className = "sg-curve-chart";
  canvas.setAttribute("role", "img");
  const chart = new LossChart(canvas);
  chart.append(points.loss.map((loss, step) => [loss, points.accuracy?.[step] ?? null]));
  canvas.setAttribute("aria-label", chart.description()); // now: off the screen, it is drawn later
  const legend = document.createElement("p");
  legend.className = "sg-curve-legend";
  legend.textContent = "Loss per step: solid line, left scale. Accuracy: dashed line, right scale.";
  figure.replaceChildren(canvas, legend);
  figure.removeAttribute("aria-busy");
  const draw = () => canvas.isConnected && chart.draw();
  new ResizeObserver(draw).observe(canvas);
  new MutationObserver(draw).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
