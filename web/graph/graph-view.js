// A drawn computation graph on the page: fitted to its column, its nodes named, its tools below it.
//
// The same for the build's drawings and the browser's: the SVG shrinks to the column's width, but
// never so far that its text falls under MIN_TEXT_PX (a drawing whose text is drawn smaller grows); past that point it keeps that size and the
// drawing scrolls sideways, inside a labelled region the keyboard can reach (and scroll with the
// arrow keys), scrolled so that the output node (the one a reader looks at) is in view from the
// start. "Open full size" shows it at Graphviz's own size in a dialog. Every node gets
// data-sg-node (its Value's label, or its id: scratchgrad.graph.GraphNode.name) so the tools below
// (backward-stepper.js, gradient-check-view.js) and tests can find it.
//
// The study (scratchgrad.drawn_graph.study: the JSON that follows each graph) says how many Values the
// graph has, and holds the steps of backward and the per-node check.

import { BackwardStepper } from "./backward-stepper.js";
import { GradientCheckView } from "./gradient-check-view.js";

/** The smallest text a fitted drawing may show, in CSS pixels; below it the drawing scrolls. */
export const MIN_TEXT_PX = 11;
const PX_PER_PT = 4 / 3;

/**
 * The widths between which a drawing of `svgSize` keeps readable text: `largest` (its width as
 * drawn, or wider if its text is drawn under MIN_TEXT_PX) and `readable` (the width at which its
 * largest text is MIN_TEXT_PX). `svgSize` is {width (pt), viewBoxWidth, fontSize (viewBox units)}.
 */
export function fittedWidths({ width, viewBoxWidth, fontSize }) {
  const drawn = width * PX_PER_PT;
  const readable = fontSize > 0 ? (viewBoxWidth * MIN_TEXT_PX) / fontSize : drawn;
  return { largest: Math.max(drawn, readable), readable };
}

function svgSize(svg) {
  const sizes = [...svg.querySelectorAll("text")].map((text) => parseFloat(text.getAttribute("font-size")) || 14);
  return {
    width: parseFloat(svg.getAttribute("width")) || svg.viewBox.baseVal.width,
    viewBoxWidth: svg.viewBox.baseVal.width,
    fontSize: sizes.length ? Math.max(...sizes) : 14, // Graphviz's default font size is 14
  };
}

/**
 * Fit `figure`'s drawing to its column, name its nodes and add its tools (once).
 * `editor` is the block's editor, if the reader's code is on the page (its lines get marked).
 */
export function enhanceGraph(figure, { study = null, filename = null, editor = null } = {}) {
  const svg = figure.querySelector(":scope > svg");
  if (!svg || figure.dataset.sgEnhanced) return;
  figure.dataset.sgEnhanced = "";
  study ??= figure.dataset.sgStudy ? JSON.parse(figure.dataset.sgStudy) : null;
  const { largest, readable } = fittedWidths(svgSize(svg));
  svg.classList.add("sg-graph-drawing");
  svg.style.maxWidth = `${largest.toFixed(1)}px`;
  svg.style.minWidth = `${readable.toFixed(1)}px`;
  nameNodes(svg, study);

  const count = study?.count ?? svg.querySelectorAll("g.node").length;
  // A page may draw the same expression under several blocks (the graph after each step): the
  // block's number keeps each region's name unique.
  const blockIndex = figure.closest(".sg-runnable")?.dataset.sgBlock;
  const where = blockIndex === undefined ? "" : ` under block ${Number(blockIndex) + 1}`;
  const what = (figure.dataset.sgGraph ? `Graph of ${figure.dataset.sgGraph}` : "Computation graph") + where;
  const scroller = document.createElement("div");
  scroller.className = "sg-graph-scroll";
  scroller.tabIndex = 0; // a region that may scroll must be reachable by keyboard
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", `${what}, ${count} Values (scrolls sideways when wider than the page)`);
  svg.replaceWith(scroller);
  scroller.append(svg);

  const bar = document.createElement("div");
  bar.className = "sg-graph-bar";
  const counted = document.createElement("span");
  counted.className = "sg-graph-count";
  counted.textContent = `${count} Values`;
  const hint = document.createElement("span");
  hint.className = "sg-graph-hint";
  hint.textContent = "wider than the page: scroll sideways, or open it full size";
  bar.append(counted, hint, fullSizeButton(svg, what));
  figure.prepend(bar);
  const output = outputNode(svg);
  const fit = () => {
    hint.hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
    if (!hint.hidden && output) showNode(scroller, output);
  };
  // The drawing may reach its final size after the scroller has (fonts, the first layout of a block
  // far down the page): watch both, so the output node is brought into view once it is there.
  const resized = new ResizeObserver(fit);
  resized.observe(scroller);
  resized.observe(svg);

  if (study?.note) {
    const note = document.createElement("p");
    note.className = "sg-graph-note";
    note.textContent = study.note;
    figure.append(note);
  }
  if (study?.steps) {
    const tools = document.createElement("div");
    tools.className = "sg-graph-tools";
    figure.append(tools);
    const check = new GradientCheckView(svg, study);
    const stepper = new BackwardStepper(svg, study, { filename, editor });
    tools.append(stepper.toggle, check.button, stepper.panel, check.report);
  }
}

/**
 * The graph's output: the node no arrow leaves (Graphviz titles an edge "tail->head"), the last
 * such in the drawing if there are several; null for a drawing without nodes.
 */
export function outputNode(svg) {
  const tails = new Set(
    [...svg.querySelectorAll("g.edge > title")].map((title) => title.textContent.split("->")[0].trim()),
  );
  const sinks = [...svg.querySelectorAll("g.node")].filter(
    (node) => !tails.has(node.querySelector(":scope > title")?.textContent.trim()),
  );
  return sinks.at(-1) ?? null;
}

/** Scroll `scroller` sideways as little as brings `node` wholly into view. */
function showNode(scroller, node) {
  const box = node.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.right > view.right) scroller.scrollLeft += box.right - view.right + 8;
  else if (box.left < view.left) scroller.scrollLeft -= view.left - box.left + 8;
}

/** data-sg-node on each node group: the Value's name for record v{i}, the id otherwise (op{i}). */
function nameNodes(svg, study) {
  for (const group of svg.querySelectorAll("g.node")) {
    const id = group.querySelector(":scope > title")?.textContent.trim() ?? "";
    const index = /^v(\d+)$/.exec(id)?.[1];
    group.dataset.sgNode = (index !== undefined && study?.nodes?.[Number(index)]?.name) || id;
  }
}

function fullSizeButton(svg, what) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "sg-button sg-graph-full";
  button.textContent = "Open full size";
  button.addEventListener("click", () => {
    const dialog = document.createElement("dialog");
    dialog.className = "sg-graph-dialog";
    dialog.setAttribute("aria-label", `${what}, full size`);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "sg-button";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    const big = svg.cloneNode(true);
    big.removeAttribute("style");
    big.classList.remove("sg-graph-drawing");
    big.style.width = `${(svg.viewBox.baseVal.width * PX_PER_PT).toFixed(1)}px`;
    big.style.height = "auto";
    const scroller = document.createElement("div");
    scroller.className = "sg-graph-dialog-scroll";
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", `${what}, full size`);
    scroller.append(big);
    dialog.append(close, scroller);
    dialog.addEventListener("close", () => {
      dialog.remove();
      button.focus();
    });
    document.body.append(dialog);
    dialog.showModal();
    close.focus();
  });
  return button;
}
