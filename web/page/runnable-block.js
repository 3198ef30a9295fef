// One runnable block: its editor, its buttons and its output, over the HTML the build wrote.
//
// The build's markup (see hooks/runnable.py) stays the fallback: without JavaScript the reader
// sees the highlighted source and CPython's output. Enhanced, the source becomes an editor,
// a toolbar appears, and each run writes its own output where the build's was.

import { drawingScale } from "../graph/graph-renderer.js";
import { enhanceGraph } from "../graph/graph-view.js";
import { drawCurve } from "./curve-figure.js";
import { createEditor } from "./editor.js";
import { isUnedited, loadEdit, saveEdit } from "./edits.js";
import { OutputView } from "./output-view.js";
import { createButton, createNote, createToolbar } from "./toolbar.js";
import { createSlider } from "./value-slider.js";

// What a block is (its file name in tracebacks, the kind of a graph drawing) is defined by the Python
// module scratchgrad.page.blocks; hooks/pyodide_runtime.py writes its constants into the bundle.
/* global BLOCK_DOT_MIME_TYPE, BLOCK_STUDY_MIME_TYPE, BLOCK_CURVE_MIME_TYPE, BLOCK_FILENAME_FORMAT */
const BUILD_ONLY_NOTE =
  "This block runs only when the site is built: it needs a package the browser does not have " +
  "(such as PyTorch). Its output above is from the build.";

const ORIGINAL_OUTPUT_NOTE =
  "The output below is from the site's build, of the page's original code, not your version: " +
  "run the block to see what yours prints.";
const MISSING_NAME = /^NameError: name '([A-Za-z_][A-Za-z0-9_]*)' is not defined/;
const ANNOUNCED_OUTPUT_CHARS = 300;

/** The note under a block for each way a run can end early: [text, kind], given why Stop restarted. */
const OUTCOME_NOTES = {
  stopped: () => ["Stopped. Everything defined before the stop is still there.", "info"],
  reset: (why) => [
    `Stopped by restarting Python (${why}): the variables of the blocks above are gone. ` +
      "“Run from top” defines them again.",
    "warning",
  ],
  cancelled: () => ["Not run: stopped before its turn.", "info"],
};

/** A drawn graph as an image whose name lists its boxes, as the build's drawings are named. */
function withTextAlternative(svg) {
  const nodes = svg.querySelectorAll("g.node").length;
  const texts = [...new Set([...svg.querySelectorAll("text")].map((text) => text.textContent.trim()))];
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Computation graph, ${nodes} nodes: ${texts.filter(Boolean).join("; ")}`);
  return svg;
}

export class RunnableBlock {
  /**
   * @param {HTMLElement} element the div.sg-runnable
   * @param {{runtime, graphs, onRun: Function, onRunFromTop: Function, beforeBugRun: Function,
   *   onRunWithAbove: Function, runOptions: Function}} services (runOptions: what every run adds,
   *   e.g. the reader's engine: ./engine-choice.js)
   */
  constructor(element, services) {
    const { runtime, graphs, onRun, onRunFromTop, definedAbove, beforeBugRun, onRunWithAbove } = services;
    this.#runOptions = services.runOptions ?? (() => ({}));
    this.element = element;
    this.page = element.dataset.sgPage;
    this.index = Number(element.dataset.sgBlock);
    this.original = element.dataset.sgCode;
    this.expect = element.dataset.sgExpect ?? null;
    this.hidden = element.hasAttribute("data-sg-hidden");
    this.runsInBrowser = element.dataset.sgBrowser !== "no";
    const result = element.querySelector(":scope > .sg-result");
    // The block's graph= option: the build drew these expressions; every run draws them again.
    const graphFigures = result.querySelectorAll(":scope > .sg-graph[data-sg-graph]");
    this.graphExpressions = [...new Set([...graphFigures].map((figure) => figure.dataset.sgGraph))];
    // Its curve= option, the same way: the training runs drawn as loss curves.
    const curveFigures = result.querySelectorAll(":scope > .sg-curve[data-sg-curve]");
    this.curveExpressions = [...new Set([...curveFigures].map((figure) => figure.dataset.sgCurve))];
    // Draw at the build's scale: this block's own drawing, or any on the page.
    const buildSvg = result.querySelector(":scope > .sg-graph svg") ?? document.querySelector(".sg-graph svg");
    this.#drawingScale = drawingScale(buildSvg);
    // Counted from 1, as the editor's label and the "block N above" hints count.
    this.filename = BLOCK_FILENAME_FORMAT.replace("{page}", this.page).replace("{number}", String(this.index + 1));
    this.#onRunFromTop = onRunFromTop;
    this.#definedAbove = definedAbove;
    this.#beforeBugRun = beforeBugRun;
    this.#runtime = runtime;
    this.#graphs = graphs;
    this.#output = new OutputView(result);
    if (!this.runsInBrowser) this.#output.note(BUILD_ONLY_NOTE);
    else if (!this.hidden) this.#buildInterface(onRun, onRunFromTop, onRunWithAbove);
    this.#enhanceGraphs();
  }

  #runtime;
  #runOptions;
  #graphs;
  #onRunFromTop;
  #definedAbove;
  #beforeBugRun;
  #announcer = null;
  #output;
  #drawings = [];
  #lastFigure = null;
  #drawingScale;
  #editor = null;
  #buttons = {};
  #edited = null;
  #slider = null; // the control of a number in the code (slider= option), if the block has one

  /** The code a run uses: the reader's version if they edited it. */
  get code() {
    return this.#editor ? this.#editor.getCode() : this.original;
  }

  /**
   * Run this block's code in the page namespace, writing into its result area.
   * Resolves with the runtime's result ({outcome, ...}).
   */
  async execute() {
    this.#drawings = [];
    this.#output.begin();
    this.#setState("queued");
    const result = await this.#runtime.run(this.code, {
      ...this.#runOptions(),
      namespace: this.page,
      filename: this.filename,
      graphs: this.graphExpressions,
      curves: this.curveExpressions,
      onStart: () => this.#setState("running"),
      onOutput: (stream, text) => this.#output.write(stream, text),
      onDisplay: this.#displayInto(this.#output, this.#drawings),
    });
    this.#output.flush();
    await Promise.allSettled(this.#drawings); // the run is over when its drawings are on the page
    this.#enhanceGraphs();
    this.#report(result);
    this.#announce(result);
    this.#markBuildFigures();
    this.#setState("idle");
    this.element.dataset.sgRuns = String(Number(this.element.dataset.sgRuns ?? 0) + 1);
    return result;
  }

  /**
   * True when `result` is what this block should do: no error, or the error it expects — that
   * exception or a subclass of it, as the build judges (scratchgrad.page.blocks.Outcome.as_expected):
   * `result.raised` lists the names of the exception's class and of all its bases.
   */
  succeeded(result) {
    if (result.outcome === "ok") return !this.expect;
    return result.outcome === "error" && this.expect !== null && result.raised.includes(this.expect);
  }

  #report(result) {
    if (result.traceback) this.#output.error(result.traceback);
    if (result.outcome === "error") this.#hintMissingName(result.traceback);
    if (result.outcome in OUTCOME_NOTES) {
      this.#output.note(...OUTCOME_NOTES[result.outcome](this.#runtime.whyStopRestarts));
    }
    if (result.outcome === "crashed") {
      this.#output.note(
        `${result.message}. Python was restarted: the variables of the blocks above are gone.`,
        "error",
      );
    }
    if (result.outcome === "unavailable") this.#output.note(result.message, "error");
  }

  /** A NameError on a name a block above defines: say which, and offer Run from top right here. */
  #hintMissingName(traceback) {
    const name = traceback.trimEnd().split("\n").at(-1).match(MISSING_NAME)?.[1];
    const definer = name && this.#definedAbove?.(this, name);
    if (!definer) return;
    const note = this.#output.note(
      `${name} is defined by block ${definer.index + 1} above, which has not run since Python started. ` +
        "Run the blocks above first: ",
      "warning",
    );
    note.classList.add("sg-note--missing-name");
    const title = `Run every block of the page from the first down to this one (block ${this.index + 1})`;
    note.append(createButton("from-top", "Run from top", title, () => this.#onRunFromTop(this)));
  }

  /** Tell a screen reader how the run ended (the result area itself is not a live region). */
  #announce(result) {
    if (!this.#announcer) return;
    const what = `Block ${this.index + 1}`;
    const printed = this.element.querySelector(":scope > .sg-result > .sg-output")?.textContent ?? "";
    const lastLine = result.traceback?.trimEnd().split("\n").at(-1);
    let text;
    if (result.outcome === "ok") text = printed ? `${what} ran. Output: ${printed}` : `${what} ran, printing nothing.`;
    else if (result.outcome === "error" && this.succeeded(result)) text = `${what} raised, as expected: ${lastLine}`;
    else if (result.outcome === "error") text = `${what} failed: ${lastLine}`;
    else {
      const note = OUTCOME_NOTES[result.outcome]?.(this.#runtime.whyStopRestarts)[0];
      text = `${what}: ${note ?? result.message ?? result.outcome}`;
    }
    if (text.length > ANNOUNCED_OUTPUT_CHARS) text = `${text.slice(0, ANNOUNCED_OUTPUT_CHARS)}… (more in the output)`;
    this.#announcer.textContent = text;
  }

  /** Fit each drawn graph to the column and give it its tools (graph-view.js); draw the build's curves. */
  #enhanceGraphs() {
    for (const figure of this.element.querySelectorAll(":scope > .sg-result > .sg-graph")) {
      enhanceGraph(figure, { filename: this.filename, editor: this.#editor });
    }
    for (const figure of this.element.querySelectorAll(":scope > .sg-result > .sg-curve")) drawCurve(figure);
  }

  /** What a run's drawings do in `output`: graphs are rendered (their promises go into `drawings`). */
  #displayInto(output, drawings) {
    return (mimeType, data, label) => {
      if (mimeType === BLOCK_DOT_MIME_TYPE) drawings.push(this.#draw(data, label, output));
      if (mimeType === BLOCK_STUDY_MIME_TYPE) this.#lastFigure?.setAttribute("data-sg-study", data);
      if (mimeType === BLOCK_CURVE_MIME_TYPE) drawCurve(output.figure("curve", label), JSON.parse(data));
    };
  }

  #draw(dot, label, output) {
    const figure = output.figure("graph", label);
    this.#lastFigure = figure;
    return this.#graphs
      .render(dot, this.#drawingScale)
      .then(
        (svg) => figure.replaceChildren(withTextAlternative(svg)),
        (error) => {
          figure.textContent = error.message;
          figure.classList.add("sg-figure--failed");
        },
      )
      .finally(() => figure.removeAttribute("aria-busy"));
  }

  /** Plots are drawn at build time only (matplotlib): say so once the code changed. */
  #markBuildFigures() {
    const changed = !isUnedited(this.code, this.original);
    for (const plot of this.element.querySelectorAll(":scope > .sg-result > .sg-plot")) {
      plot.classList.toggle("sg-figure--from-build", changed);
      plot.title = changed ? "Drawn when the site was built, from the block's original code" : "";
    }
  }

  #buildInterface(onRun, onRunFromTop, onRunWithAbove) {
    const source = this.element.querySelector(":scope > .sg-source");
    const saved = loadEdit(this.page, this.index);
    const editorHost = document.createElement("div");
    editorHost.className = "sg-editor";
    this.#editor = createEditor(editorHost, saved?.code ?? this.original, {
      label: `Python code, block ${this.index + 1} (Ctrl+Enter runs it)`,
      onRun: () => onRun(this),
      onChange: (code) => {
        saveEdit(this.page, this.index, code, this.original);
        this.#showEdited(saved);
        this.#slider?.follow();
      },
    });
    source.hidden = true;
    source.after(editorHost);
    const toolbar = this.#toolbar(onRun, onRunFromTop);
    editorHost.after(toolbar);
    // On its own row under the buttons: the toolbar scrolls sideways on a phone, the switch must show.
    if (this.element.dataset.sgBreak) toolbar.after(this.#breakSwitch());
    if (this.element.dataset.sgSlider) {
      const spec = JSON.parse(this.element.dataset.sgSlider);
      this.#slider = createSlider(spec, this.#editor, () => onRunWithAbove(this));
      toolbar.after(this.#slider.row);
    }
    this.element.classList.add("sg-runnable--enhanced");
    this.#showEdited(saved);
  }

  #toolbar(onRun, onRunFromTop) {
    const { bar, add: button } = createToolbar(this.#buttons);
    button("run", "Run", "Run this block (Ctrl+Enter or ⌘+Enter in the editor)", () => onRun(this));
    if (this.index > 0) {
      button("from-top", "Run from top", "Run every block of the page from the first down to this one", () =>
        onRunFromTop(this),
      );
    }
    button("stop", "Stop", "Stop the running code", () => this.#runtime.stop()).hidden = true;
    button("reset", "Reset code", "Put back the block's original code", () => {
      this.#editor.setCode(this.original);
      this.#editor.focus();
    });
    button("copy", "Copy", "Copy the code", () => this.#copy());
    this.#edited = createNote("sg-edited", { title: "Your version of this block, kept in this browser" }, "edited");
    const state = createNote("sg-block-state", { "aria-live": "polite" });
    this.#announcer = createNote("sg-visually-hidden", { role: "status" });
    bar.append(this.#edited, state, this.#announcer);
    return bar;
  }

  /** A break-it switch (scratchgrad.page.break_it): on, the block runs again with the bug, beside the right run. */
  #breakSwitch() {
    const label = document.createElement("label");
    label.className = "sg-break";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.setAttribute("role", "switch");
    box.addEventListener("change", () => this.#runWithBug(box.checked));
    label.append(box, ` ${this.element.dataset.sgBreakLabel}`);
    return label;
  }

  async #runWithBug(on) {
    this.element.querySelector(":scope > .sg-result--bug")?.remove();
    this.element.classList.toggle("sg-runnable--broken", on);
    if (!on) return;
    await this.#beforeBugRun?.(this); // the blocks above define what the rerun needs
    if (!this.element.classList.contains("sg-runnable--broken")) return; // switched off meanwhile
    const area = document.createElement("div");
    area.className = "sg-result sg-result--bug";
    const heading = document.createElement("p");
    heading.className = "sg-bug-heading";
    heading.textContent = `With the bug: ${this.element.dataset.sgBreakLabel}`;
    const output = new OutputView(area);
    this.element.querySelector(":scope > .sg-result").after(area);
    output.begin();
    area.append(heading);
    const drawings = [];
    const result = await this.#runtime.run(this.code, {
      ...this.#runOptions(),
      namespace: this.page,
      filename: this.filename,
      graphs: this.graphExpressions,
      curves: this.curveExpressions,
      bug: this.element.dataset.sgBreak,
      onOutput: (stream, text) => output.write(stream, text),
      onDisplay: this.#displayInto(output, drawings),
    });
    output.flush();
    await Promise.allSettled(drawings);
    if (result.traceback) output.error(result.traceback);
    area.prepend(heading); // above what the run wrote
    // Wrong against right: both runs' drawings checked, node by node.
    for (const where of [area, this.element.querySelector(":scope > .sg-result")]) {
      for (const figure of where.querySelectorAll(":scope > .sg-graph")) {
        enhanceGraph(figure, { filename: this.filename, editor: this.#editor });
        figure.querySelector(".sg-graph-check")?.click();
      }
    }
    area.dataset.sgRuns = "1";
  }

  #showEdited(saved) {
    const edited = !isUnedited(this.code, this.original);
    this.#output.markFromOriginal(edited, ORIGINAL_OUTPUT_NOTE);
    this.#edited.hidden = !edited;
    this.#buttons.reset.disabled = !edited;
    this.element.classList.toggle("sg-runnable--edited", edited);
    if (edited && saved && saved.original !== this.original && saved.code === this.code) {
      this.#edited.textContent = "edited (the page’s version has changed since)";
    } else {
      this.#edited.textContent = "edited";
    }
  }

  async #copy() {
    const button = this.#buttons.copy;
    try {
      await navigator.clipboard.writeText(this.code);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  }

  #setState(state) {
    this.element.dataset.sgState = state;
    if (this.hidden) return;
    const busy = state !== "idle";
    const focused = document.activeElement; // keep keyboard focus on the button that stays useful
    this.#buttons.run.disabled = busy;
    this.#buttons.stop.hidden = !busy;
    if (busy && focused === this.#buttons.run) this.#buttons.stop.focus();
    if (!busy && focused === this.#buttons.stop) this.#buttons.run.focus();
    const label = this.element.querySelector(".sg-block-state");
    label.textContent = { idle: "", queued: "waiting…", running: "running…" }[state];
    if (busy) this.#announcer.textContent = "";
  }
}
