// "Check gradients": every node of a drawn graph marked ok or wrong against central differences.
//
// The numbers come from the study (scratchgrad.drawn_graph.check, computed in the Python worker, or by
// the build): here they are only shown. A checked node gets data-sg-check="ok" | "wrong" |
// "unchecked"; a wrong one is tinted, outlined with a dashed border (a cue that is not colour) and
// labelled "✗ expected …, got …" under its box. Every grad field shows what was checked: the
// gradient backward() gives from zero (the drawing may have been made before backward ran, or, under
// a break-it switch, of Values whose grads came from the right run). The report below the drawing
// says the same in words, in a live region, and names the op whose backward first went wrong.

import { gradField, gradText, nodeGroup, svgElement } from "./svg-nodes.js";

export class GradientCheckView {
  #svg;
  #study;

  constructor(svg, study) {
    this.#svg = svg;
    this.#study = study;
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "sg-button sg-graph-check";
    this.button.textContent = "Check gradients";
    this.button.title = "Compare every node's gradient from backward() with central differences";
    this.button.addEventListener("click", () => this.show());
    this.report = document.createElement("div");
    this.report.className = "sg-graph-report";
    this.report.setAttribute("role", "status");
  }

  /** Mark every node and write the report. */
  show() {
    const { nodes, check } = this.#study;
    const wrong = [];
    let unchecked = 0;
    nodes.forEach((node, index) => {
      const verdict = check.nodes[index];
      const group = nodeGroup(this.#svg, node.name);
      if (!group) return;
      group.dataset.sgCheck = verdict.status;
      const grad = gradText(group);
      if (grad) grad.textContent = gradField(verdict.got);
      group.querySelector(":scope > .sg-check-label")?.remove();
      if (verdict.status === "wrong") {
        wrong.push(`${node.name}: ${verdict.text}`);
        labelBelow(group, `✗ ${verdict.text}`);
      }
      if (verdict.status === "unchecked") unchecked += 1;
    });
    if (wrong.length) growToFit(this.#svg);
    const lines = [];
    if (wrong.length === 0) {
      lines.push(`✓ All ${nodes.length - unchecked} checked gradients agree with central differences.`);
    } else {
      lines.push(`✗ ${wrong.length} of ${nodes.length - unchecked} gradients are wrong: ${wrong.join("; ")}.`);
      lines.push(...check.culprits);
    }
    if (unchecked) lines.push(`${unchecked} not checked: ${check.nodes.find((c) => c.reason)?.reason}.`);
    if (this.#study.error) lines.push(`backward() stopped: ${this.#study.error}`);
    this.report.replaceChildren(
      ...lines.map((line) => {
        const p = document.createElement("p");
        p.textContent = line;
        return p;
      }),
    );
  }
}

/** Grow the drawing's viewBox (and height) so the labels under the lowest boxes are not cut off. */
function growToFit(svg) {
  const view = svg.viewBox.baseVal;
  const drawn = svg.getBBox();
  const bottom = Math.max(view.y + view.height, drawn.y + drawn.height + 2);
  const extra = bottom - (view.y + view.height);
  if (extra <= 0) return;
  const height = parseFloat(svg.getAttribute("height"));
  if (height > 0) svg.setAttribute("height", `${((height * (view.height + extra)) / view.height).toFixed(1)}pt`);
  svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.width} ${view.height + extra}`);
}

function labelBelow(group, text) {
  const box = group.getBBox();
  const size = parseFloat(group.querySelector("text")?.getAttribute("font-size")) || 12; // as the box's own text
  const label = svgElement("text", {
    class: "sg-check-label",
    x: box.x + box.width / 2,
    y: box.y + box.height + size,
    "text-anchor": "middle",
    "font-size": size,
  });
  label.textContent = text;
  group.append(label);
}
