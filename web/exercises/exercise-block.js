// One "Your turn" exercise: the reader's editor, Check in the Python worker, hints, the solution.
//
// The build's markup (hooks/exercises.py) stays the fallback: without JavaScript the reader sees
// the task, the stub, the hints and the solution in closed <details>. Enhanced, the stub becomes
// an editor holding the reader's saved code, the hints come one at a time, the solution waits
// until the reader has checked at least once, and Check writes one line per hidden check and a
// verdict. Checks run in the worker (never on this thread) and end by themselves: the package's
// time limit stops a runaway loop, and a page-side deadline stops Python if even that fails.

import { drawingScale } from "../graph/graph-renderer.js";
import { enhanceGraph } from "../graph/graph-view.js";
import { showReport, showVerdict } from "./check-report.js";
import { createEditorWhenNeeded } from "../shared/editor.js";
import {
  checkedOnTheCommandLine,
  loadWork,
  passedPieces,
  passingCode,
  progressOf,
  resetCode,
  saveWork,
} from "../shared/exercise-work.js";
import { createToolbar } from "../shared/toolbar.js";

// The package's own time limit for an exercise's checks (scratchgrad.exercises.runner), written
// into the bundle by hooks/pyodide_runtime.py.
/* global EXERCISE_TIME_LIMIT_S */

/** After twice the package's own limit without an answer, the page stops Python itself. */
const CHECK_DEADLINE_MS = 2 * EXERCISE_TIME_LIMIT_S * 1000;

/** Asked before the solution of a piece the page cannot check (it is checked on the command line). */
const ASK_FOR_THE_SOLUTION =
  "This piece is checked on your own machine, so the page cannot know whether yours passes. " +
  "Show the solution anyway? It counts as a solution viewed.";

/** What a check that ended early says, given why Stop restarted Python. */
const NOT_CHECKED = {
  stopped: () => "Stopped before the checks finished.",
  reset: (why) => `Stopped by restarting Python (${why}).`,
  cancelled: () => "Not checked: stopped before its turn.",
};

export class ExerciseBlock {
  /** @param {HTMLElement} element the section.sg-exercise  @param {{runtime, graphs}} services */
  constructor(element, { runtime, graphs }) {
    this.element = element;
    this.#graphs = graphs;
    this.id = element.dataset.sgExercise;
    this.onTheCommandLine = checkedOnTheCommandLine(this.id);
    this.stub = element.dataset.sgStub;
    this.earlier = (element.dataset.sgEarlier ?? "").split(" ").filter(Boolean);
    this.#runtime = runtime;
    this.#earlierLinks = [...element.querySelectorAll(":scope > .sg-exercise__builds-on a[data-sg-piece]")];
    this.#titles = Object.fromEntries(this.#earlierLinks.map((link) => [link.dataset.sgPiece, link.textContent]));
    this.#hints = [...element.querySelectorAll(":scope > .sg-exercise__hint")];
    this.#solution = element.querySelector(":scope > .sg-exercise__solution");
    this.#build();
    this.refresh();
  }

  #runtime;
  #graphs;
  #titles;
  #earlierLinks;
  #hints;
  #solution;
  #editor;
  #buttons = {};
  #state;
  #report;
  #changedNote;
  #brokenNote;
  #checking = false;
  #solutionShown = false;

  get code() {
    return this.#editor.getCode();
  }

  /** Run the hidden checks on `source` (the editor's code); resolves with "pass" or "fail". */
  async check(source = this.code) {
    saveWork(this.id, { code: source, stub: this.stub });
    this.#setChecking(true);
    let deadline = 0;
    const result = await this.#runtime.check(this.id, source, passedPieces(this.earlier), {
      onStart: () => {
        this.#state.dataset.busy = "running";
        deadline = setTimeout(() => this.#runtime.stop(), CHECK_DEADLINE_MS);
      },
    });
    clearTimeout(deadline);
    const verdict = await this.#show(result);
    const passed = verdict === "pass" ? source : (loadWork(this.id)?.passed ?? null);
    saveWork(this.id, { checked: true, passed, lastChecked: source });
    this.element.dataset.sgVerdict = verdict;
    this.element.dataset.sgChecks = String(Number(this.element.dataset.sgChecks ?? 0) + 1);
    this.#setChecking(false);
    this.#buttons.solution.disabled = false;
    this.refresh();
    return verdict;
  }

  /** Show the reader's progress and which earlier pieces a check would use (theirs or ours). */
  refresh() {
    const record = loadWork(this.id);
    const progress = progressOf(record, this.id);
    this.#state.textContent = progress;
    this.#state.dataset.progress = progress.replaceAll(" ", "-");
    this.element.dataset.sgProgress = progress.replaceAll(" ", "-");
    if (record?.checked) this.#buttons.solution.disabled = false;
    // An imported piece has no stub on record ("") and is not "changed".
    const changed = Boolean(record?.stub) && record.stub !== this.stub && record.code !== this.stub;
    this.#changedNote.hidden = !changed;
    // Passed once, but the latest Check failed: the piece does not count until one passes again.
    this.#brokenNote.hidden = !record?.passed || passingCode(record, this.id) !== null;
    this.#showPieces();
  }

  dispose() {
    if (this.#checking) this.#runtime.stop();
  }

  async #show(result) {
    if (result.outcome === "ok") {
      const graphs = showReport(this.#report, result.report, this.#titles);
      await Promise.allSettled(graphs.map(({ figure, dot }) => this.#drawChecked(figure, dot)));
      return result.report.verdict;
    }
    const text =
      NOT_CHECKED[result.outcome]?.(this.#runtime.whyStopRestarts) ?? result.message ?? "The checks could not run.";
    showVerdict(this.#report, "fail", text);
    return "fail";
  }

  /** Draw a failed check's graph of the reader's Values with every node checked (graph-view.js). */
  async #drawChecked(figure, dot) {
    try {
      figure.replaceChildren(await this.#graphs.render(dot, drawingScale(document.querySelector(".sg-graph svg"))));
      enhanceGraph(figure);
      figure.querySelector(".sg-graph-check")?.click();
    } catch (error) {
      figure.textContent = error.message;
      figure.classList.add("sg-figure--failed");
    } finally {
      figure.removeAttribute("aria-busy");
    }
  }

  #build() {
    const element = this.element;
    const record = loadWork(this.id);
    const stubView = element.querySelector(":scope > .sg-exercise__stub");
    const host = document.createElement("div");
    host.className = "sg-editor sg-exercise__editor";
    stubView.after(host);
    this.#editor = createEditorWhenNeeded({ source: stubView, shows: this.stub }, host, record?.code ?? this.stub, {
      label: `Your code for “${element.dataset.sgTitle}”${this.onTheCommandLine ? "" : " (Ctrl+Enter checks it)"}`,
      onRun: () => (this.onTheCommandLine ? undefined : this.check()),
      onChange: (code) => saveWork(this.id, { code, stub: loadWork(this.id)?.stub || this.stub }),
    });

    this.#state = document.createElement("span");
    this.#state.className = "sg-exercise__state";
    element.querySelector(":scope > .sg-exercise__head").append(this.#state);

    this.#changedNote = note(
      "This exercise changed since you started it. Your code is kept; “Reset code” gives the new stub.",
    );
    host.before(this.#changedNote);
    this.#brokenNote = note(
      "Your latest check failed, so this piece no longer counts: it is not passed, and “my engine” " +
        `runs the book's “${element.dataset.sgTitle}” until a check of yours passes again. `,
    );
    const putBack = Object.assign(document.createElement("button"), {
      type: "button",
      className: "sg-exercise__put-back",
      textContent: "Put back my passing version and check it",
    });
    putBack.addEventListener("click", () => {
      const passing = loadWork(this.id).passed;
      this.#editor.setCode(passing); // the editor takes it a moment later: check the code itself
      this.check(passing);
    });
    this.#brokenNote.append(putBack);
    this.#changedNote.after(this.#brokenNote);
    for (const link of this.#earlierLinks) {
      const source = document.createElement("span");
      source.className = "sg-piece-source";
      link.after(source);
    }
    element
      .querySelector(":scope > .sg-exercise__builds-on")
      ?.append(" Yours: the pieces you passed; ours: the reference solution, until you pass yours.");

    const toolbar = this.#toolbar();
    host.after(toolbar);
    for (const hint of this.#hints) hint.hidden = true;
    this.#solution.hidden = true;
    this.#report = document.createElement("div");
    this.#report.className = "sg-exercise__report";
    this.#report.setAttribute("aria-live", "polite");
    (this.#hints.at(-1) ?? toolbar).after(this.#report);
    element.querySelector(":scope > .sg-exercise__offline")?.remove();
    element.classList.add("sg-exercise--enhanced");
  }

  #toolbar() {
    const { bar, add: button } = createToolbar(this.#buttons);
    if (!this.onTheCommandLine) {
      button("run", "Check", "Run the hidden checks on your code (Ctrl+Enter or ⌘+Enter in the editor)", () =>
        this.check(),
      );
      button("stop", "Stop", "Stop the checks", () => this.#runtime.stop()).hidden = true;
    }
    button("hint", "Hint", "Show the next hint", () => this.#nextHint()).disabled = !this.#hints.length;
    const solution = button("solution", "Show solution", "Check your code at least once first", () =>
      this.#toggleSolution(),
    );
    // Checked on the command line, the piece cannot be checked here first: the page asks instead.
    solution.disabled = !this.onTheCommandLine;
    if (this.onTheCommandLine) solution.title = "Show the solution (asks first: the page cannot check this piece)";
    button("reset", "Reset code", "Put the stub back in the editor (your passing piece is kept)", () => {
      resetCode(this.id, this.stub);
      this.#editor.setCode(this.stub);
      this.#editor.focus();
    });
    return bar;
  }

  #nextHint() {
    const next = this.#hints.find((hint) => hint.hidden);
    if (!next) return;
    next.hidden = false;
    next.open = true;
    if (!this.#hints.some((hint) => hint.hidden)) this.#buttons.hint.disabled = true;
  }

  #toggleSolution() {
    const show = this.#solution.hidden;
    if (show && this.onTheCommandLine && !this.#solutionShown) {
      if (!window.confirm(ASK_FOR_THE_SOLUTION)) return;
      this.#solutionShown = true;
      this.element.dataset.sgSolutionViews = String(Number(this.element.dataset.sgSolutionViews ?? 0) + 1);
    }
    this.#solution.hidden = !show;
    this.#solution.open = show;
    this.#buttons.solution.textContent = show ? "Hide solution" : "Show solution";
  }

  /** Mark each earlier piece as the reader's (they passed it) or ours (the reference solution). */
  #showPieces() {
    const yours = passedPieces(this.earlier);
    for (const link of this.#earlierLinks) {
      const mine = link.dataset.sgPiece in yours;
      link.nextElementSibling.textContent = mine ? " (yours)" : " (ours)";
      link.nextElementSibling.dataset.source = mine ? "yours" : "reference";
    }
  }

  #setChecking(checking) {
    this.#checking = checking;
    const focused = document.activeElement;
    this.#buttons.run.disabled = checking;
    this.#buttons.stop.hidden = !checking;
    if (checking && focused === this.#buttons.run) this.#buttons.stop.focus();
    if (!checking && focused === this.#buttons.stop) this.#buttons.run.focus();
    this.element.dataset.sgState = checking ? "checking" : "idle";
    this.#state.dataset.busy = checking ? "waiting" : "";
    if (checking) this.#state.textContent = "checking…";
  }
}

function note(text) {
  const node = document.createElement("p");
  node.className = "sg-note sg-note--warning";
  node.setAttribute("role", "status");
  node.textContent = text;
  node.hidden = true;
  return node;
}
