// One runnable block: its editor, its buttons and its output, over the HTML the build wrote.
//
// The build's markup (see hooks/runnable.py) stays the fallback: without JavaScript the reader
// sees the highlighted source and CPython's output. Enhanced, the source becomes an editor,
// a toolbar appears (block-toolbar.js), and each run writes its own output where the build's was
// (run-drawings.js for its drawings, run-notes.js for how it ended). Python judges every run
// (scratchgrad.page.blocks.run_for_page): the page only reads the verdict.

import { drawingScale } from "../graph/graph-renderer.js";
import { enhanceGraph } from "../graph/graph-view.js";
import { createBlockToolbar } from "./block-toolbar.js";
import { createBugArea, createBreakSwitch } from "./break-switch.js";
import { drawCurve } from "./curve-figure.js";
import { createEditorWhenNeeded } from "../shared/editor.js";
import { isUnedited, loadEdit, saveEdit } from "./edits.js";
import { OutputView } from "./output-view.js";
import { drawInto } from "./run-drawings.js";
import { announcement, missingName, reportRun } from "./run-notes.js";
import { createButton } from "../shared/toolbar.js";
import { createSlider } from "./value-slider.js";

const BUILD_ONLY_NOTE =
  "This block runs only when the site is built: it needs a package the browser does not have " +
  "(such as PyTorch). Its output above is from the build.";

const ORIGINAL_OUTPUT_NOTE =
  "The output below is from the site's build, of the page's original code, not your version: " +
  "run the block to see what yours prints.";

export class RunnableBlock {
  /**
   * @param {HTMLElement} element the div.sg-runnable
   * @param {{runtime, graphs, onRun: Function, onRunFromTop: Function, definedAbove: Function,
   *   beforeBugRun: Function, onRunWithAbove: Function, runOptions: Function}} services
   *   (runOptions: what every run adds, e.g. the reader's engine: ./engine-choice.js)
   */
  constructor(element, services) {
    const { runtime, graphs, onRun, onRunFromTop, definedAbove, beforeBugRun, onRunWithAbove } = services;
    this.#runOptions = services.runOptions ?? (() => ({}));
    this.element = element;
    this.page = element.dataset.sgPage;
    this.index = Number(element.dataset.sgBlock);
    this.filename = element.dataset.sgFilename; // its name in tracebacks, as Python names it
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
  #toolbar = null; // {edited, state, announcer}: the texts beside the buttons
  #output;
  #drawingScale;
  #editor = null;
  #buttons = {};
  #slider = null; // the control of a number in the code (slider= option), if the block has one

  /** The code a run uses: the reader's version if they edited it. */
  get code() {
    return this.#editor ? this.#editor.getCode() : this.original;
  }

  /**
   * Run this block's code in the page namespace, writing into its result area.
   * Resolves with the runtime's result ({outcome, asExpected, ...}).
   */
  async execute() {
    this.#setState("queued");
    const result = await this.#runInto(this.#output, { onStart: () => this.#setState("running") });
    this.#enhanceGraphs();
    reportRun(this.#output, result, this.#runtime.whyStopRestarts);
    this.#hintMissingName(result);
    this.#announce(result);
    this.#markBuildFigures();
    this.#setState("idle");
    this.element.dataset.sgRuns = String(Number(this.element.dataset.sgRuns ?? 0) + 1);
    return result;
  }

  /** True when `result` is what this block should do, as Python judged it (Outcome.as_expected). */
  succeeded(result) {
    return result.asExpected === true;
  }

  /** One run of the block's code into `output`, over once its drawings are on the page. */
  async #runInto(output, options) {
    const drawings = [];
    output.begin();
    const result = await this.#runtime.run(this.code, {
      ...this.#runOptions(),
      namespace: this.page,
      block: { page: this.page, index: this.index, expect: this.expect },
      graphs: this.graphExpressions,
      curves: this.curveExpressions,
      onOutput: (stream, text) => output.write(stream, text),
      onDisplay: drawInto(output, drawings, { graphs: this.#graphs, scale: this.#drawingScale }),
      ...options,
    });
    output.flush();
    await Promise.allSettled(drawings);
    return result;
  }

  /** A NameError on a name a block above defines: say which, and offer Run from top right here. */
  #hintMissingName(result) {
    const name = missingName(result);
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

  #announce(result) {
    if (!this.#toolbar) return;
    const printed = this.element.querySelector(":scope > .sg-result > .sg-output")?.textContent ?? "";
    const whyStopRestarts = this.#runtime.whyStopRestarts;
    this.#toolbar.announcer.textContent = announcement(result, { number: this.index + 1, printed, whyStopRestarts });
  }

  /** Fit each drawn graph in `areas` to the column and give it its tools (graph-view.js); draw the build's curves. */
  #enhanceGraphs(areas = [this.element.querySelector(":scope > .sg-result")]) {
    for (const area of areas) {
      for (const figure of area.querySelectorAll(":scope > .sg-graph")) {
        enhanceGraph(figure, { filename: this.filename, editor: this.#editor });
      }
      for (const figure of area.querySelectorAll(":scope > .sg-curve")) drawCurve(figure);
    }
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
    source.after(editorHost);
    this.#editor = createEditorWhenNeeded(
      { source: source, shows: this.original },
      editorHost,
      saved?.code ?? this.original,
      {
        label: `Python code, block ${this.index + 1} (Ctrl+Enter runs it)`,
        onRun: () => onRun(this),
        onChange: (code) => {
          saveEdit(this.page, this.index, code, this.original);
          this.#showEdited(saved);
          this.#slider?.follow();
        },
      },
    );
    this.#toolbar = createBlockToolbar(this.#buttons, {
      fromTop: this.index > 0,
      run: () => onRun(this),
      runFromTop: () => onRunFromTop(this),
      stop: () => this.#runtime.stop(),
      reset: () => {
        this.#editor.setCode(this.original);
        this.#editor.focus();
      },
      code: () => this.code,
    });
    const { bar } = this.#toolbar;
    editorHost.after(bar);
    // On its own row under the buttons: the toolbar scrolls sideways on a phone, the switch must show.
    const bugLabel = this.element.dataset.sgBreakLabel;
    if (this.element.dataset.sgBreak) bar.after(createBreakSwitch(bugLabel, (on) => this.#runWithBug(on)));
    if (this.element.dataset.sgSlider) {
      const spec = JSON.parse(this.element.dataset.sgSlider);
      this.#slider = createSlider(spec, this.#editor, () => onRunWithAbove(this));
      bar.after(this.#slider.row);
    }
    this.element.classList.add("sg-runnable--enhanced");
    this.#showEdited(saved);
  }

  async #runWithBug(on) {
    this.element.querySelector(":scope > .sg-result--bug")?.remove();
    this.element.classList.toggle("sg-runnable--broken", on);
    if (!on) return;
    await this.#beforeBugRun?.(this); // the blocks above define what the rerun needs
    if (!this.element.classList.contains("sg-runnable--broken")) return; // switched off meanwhile
    const result = this.element.querySelector(":scope > .sg-result");
    const { area, heading } = createBugArea(result, this.element.dataset.sgBreakLabel);
    const output = new OutputView(area);
    const withBug = await this.#runInto(output, { bug: this.element.dataset.sgBreak });
    if (withBug.traceback) output.error(withBug.traceback);
    area.prepend(heading); // above what the run wrote
    // Wrong against right: both runs' drawings checked, node by node.
    this.#enhanceGraphs([area, result]);
    for (const where of [area, result]) {
      for (const button of where.querySelectorAll(":scope > .sg-graph .sg-graph-check")) button.click();
    }
    area.dataset.sgRuns = "1";
  }

  #showEdited(saved) {
    const edited = !isUnedited(this.code, this.original);
    const note = this.#toolbar.edited;
    this.#output.markFromOriginal(edited, ORIGINAL_OUTPUT_NOTE);
    note.hidden = !edited;
    this.#buttons.reset.disabled = !edited;
    this.element.classList.toggle("sg-runnable--edited", edited);
    if (edited && saved && saved.original !== this.original && saved.code === this.code) {
      note.textContent = "edited (the page’s version has changed since)";
    } else {
      note.textContent = "edited";
    }
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
    this.#toolbar.state.textContent = { idle: "", queued: "waiting…", running: "running…" }[state];
    if (busy) this.#toolbar.announcer.textContent = "";
  }
}
