// "Step through backward": the recorded backward pass of a drawn graph, replayed one visit at a time.
//
// The record is the study's (scratchgrad.drawn_graph.record ran the graph's own backward() in the
// Python worker, or in the build): the order of the visits, each child's gradient after each
// visit, the chain-rule products in words and the lines of code that ran. Here they are replayed:
// the visited node is highlighted (a thick outline, not only a colour), the grad fields of the
// drawing show the gradients as they stand at that step, the words go to a live region, and the
// code lines are marked in the block's editor when they are the block's own, or quoted otherwise.
// Step 0 is the seed (the output's grad = 1); the last step is the end of the pass.

import { gradField, gradText, nodeGroup } from "./svg-nodes.js";

const PLAY_MS = 1200;

export class BackwardStepper {
  #svg;
  #study;
  #filename;
  #editor;
  #step = 0;
  #timer = 0;
  #drawnGrads = new Map();
  #buttons = {};
  #text;
  #code;

  constructor(svg, study, { filename = null, editor = null } = {}) {
    this.#svg = svg;
    this.#study = study;
    this.#filename = filename;
    this.#editor = editor;
    this.toggle = this.#button("toggle", "Step through backward", () => this.open());
    this.toggle.setAttribute("aria-expanded", "false");
    this.panel = document.createElement("div");
    this.panel.className = "sg-stepper";
    this.panel.hidden = true;
    this.panel.setAttribute("role", "group");
    this.panel.setAttribute("aria-label", "Backward, step by step");
    const controls = document.createElement("div");
    controls.className = "sg-stepper-controls";
    controls.append(
      this.#button("restart", "Restart", () => this.show(0)),
      this.#button("previous", "Previous step", () => this.show(this.#step - 1)),
      this.#button("play", "Play", () => this.#playOrPause()),
      this.#button("next", "Next step", () => this.show(this.#step + 1)),
      this.#button("close", "Close", () => this.close()),
    );
    this.#text = document.createElement("div");
    this.#text.className = "sg-step-text";
    this.#text.setAttribute("aria-live", "polite");
    this.#code = document.createElement("pre");
    this.#code.className = "sg-step-code";
    this.panel.append(controls, this.#text, this.#code);
    this.panel.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") this.show(this.#step + 1);
      else if (event.key === "ArrowLeft") this.show(this.#step - 1);
      else return;
      event.preventDefault();
    });
  }

  /** The number of steps: the seed, then one per visit. */
  get length() {
    return this.#study.steps.length + 1;
  }

  open() {
    for (const group of this.#svg.querySelectorAll("g.node")) {
      const text = gradText(group);
      if (text) this.#drawnGrads.set(text, text.textContent);
    }
    this.panel.hidden = false;
    this.toggle.setAttribute("aria-expanded", "true");
    this.show(0);
    this.#buttons.next.focus();
  }

  close() {
    this.#pause();
    for (const [text, drawn] of this.#drawnGrads) text.textContent = drawn;
    this.#mark(null);
    this.#editor?.markLines([]);
    this.panel.hidden = true;
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.focus();
  }

  /** Show step `step` (clamped): the node visited, the gradients then, the words and the code. */
  show(step) {
    const last = this.length - 1;
    this.#step = Math.max(0, Math.min(step, last));
    const { nodes, steps, seeded } = this.#study;
    const grads = [...seeded];
    for (const visit of steps.slice(0, this.#step)) for (const [child, grad] of visit.grads) grads[child] = grad;
    nodes.forEach((node, index) => {
      const text = gradText(nodeGroup(this.#svg, node.name) ?? document.createElement("g"));
      if (text) text.textContent = gradField(grads[index]);
    });
    const root = nodes.at(-1).name;
    let words;
    let visited;
    if (this.#step === 0) {
      visited = root;
      words = [
        `Step 1 of ${this.length}: the seed. ${root}.grad = 1.0 (d${root}/d${root}): backward starts at the output.`,
      ];
    } else {
      const visit = steps[this.#step - 1];
      visited = nodes[visit.node].name;
      words = [`Step ${this.#step + 1} of ${this.length}: backward visits ${visited}.`, ...visit.text];
      if (this.#step === last)
        words.push(this.#study.error ? `backward() stopped: ${this.#study.error}` : "Backward is done.");
    }
    this.#mark(visited);
    this.#text.replaceChildren(...words.map(paragraph));
    this.#showCode(this.#step === 0 ? null : steps[this.#step - 1]);
    const focused = document.activeElement;
    this.#buttons.previous.disabled = this.#step === 0;
    this.#buttons.next.disabled = this.#step === last;
    // A button that just became disabled loses the keyboard focus: hand it to the one that still works.
    if (focused === this.#buttons.next && this.#step === last) this.#buttons.restart.focus();
    if (focused === this.#buttons.previous && this.#step === 0) this.#buttons.next.focus();
    if (this.#step === last) this.#pause();
  }

  #showCode(visit) {
    const lines = visit ? visit.lines : [];
    const own = lines.filter((line) => line.file === this.#filename).map((line) => line.line);
    this.#editor?.markLines(own);
    const quoted = lines.map((line) => `${line.file}, line ${line.line}:  ${line.text.trim()}`);
    const origin = visit?.origin;
    if (origin) quoted.push(`the op's rule: ${origin.file}, line ${origin.line}:  ${origin.text.trim()}`);
    if (own.length && this.#editor) quoted.push("(marked in the editor above)");
    this.#code.hidden = quoted.length === 0;
    this.#code.textContent = quoted.join("\n");
  }

  #mark(name) {
    for (const group of this.#svg.querySelectorAll("g.node[data-sg-current]")) delete group.dataset.sgCurrent;
    const group = name && nodeGroup(this.#svg, name);
    if (!group) return;
    group.dataset.sgCurrent = "";
    // On a drawing wider than its column, bring the visited node into the scroll region's view.
    const region = this.#svg.parentElement;
    const box = group.getBoundingClientRect();
    const view = region.getBoundingClientRect();
    if (box.left < view.left || box.right > view.right) {
      region.scrollBy({ left: box.left + box.width / 2 - (view.left + view.width / 2) });
    }
  }

  #playOrPause() {
    if (this.#timer) return this.#pause();
    if (this.#step === this.length - 1) this.show(0);
    this.#buttons.play.textContent = "Pause";
    this.#timer = setInterval(() => this.show(this.#step + 1), PLAY_MS);
  }

  #pause() {
    clearInterval(this.#timer);
    this.#timer = 0;
    this.#buttons.play.textContent = "Play";
  }

  #button(name, text, action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `sg-button sg-stepper-${name}`;
    button.textContent = text;
    button.addEventListener("click", action);
    this.#buttons[name] = button;
    return button;
  }
}

function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}
