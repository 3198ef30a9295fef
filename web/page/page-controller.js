// The runnable blocks of one page: one shared namespace, a status line, Restart, run from top.
//
// Blocks run in the order the reader asks, like notebook cells. Two rules help a reader who
// starts in the middle of a page:
// - "Run from top" runs every block from the first down to the chosen one, stopping at the
//   first block that does not do what the page says it does.
// - Hidden set-up blocks (the `hide` option) run by themselves, once per namespace, before
//   the first block below them: the reader cannot see them, so cannot be asked to run them.
// - A break-it switch reruns its block with a bug beside the right run: it first runs the page
//   from the top when a block above has not run since Python started (the rerun needs their names).
// - Blocks marked browser="no" (they need a package Pyodide lacks, e.g. PyTorch) never run
//   here; the page promises later blocks do not depend on them, so they are simply skipped.

import { definesName } from "./definitions.js";
import { EngineChoice } from "./engine-choice.js";
import { RunnableBlock } from "./runnable-block.js";
import { createButton } from "../shared/toolbar.js";
import { STATUS } from "../runtime/python-runtime.js";

const STATUS_TEXT = {
  [STATUS.idle]: "Python starts when this page needs it.",
  [STATUS.loading]: "Loading Python (Pyodide) in the background…",
  [STATUS.ready]: "Python is ready. The blocks of this page share their variables, like notebook cells.",
  [STATUS.running]: "Running…",
};

export class PageController {
  /** Enhance the runnable blocks of `root`; null when the page has none. */
  static enhance(root, services) {
    const elements = [...root.querySelectorAll(".sg-runnable[data-sg-code]")];
    return elements.length ? new PageController(elements, services) : null;
  }

  #runtime;
  #blocks;
  #ranSinceStart = new Set(); // the blocks that did what the page says since Python (re)started
  #statusLine;
  #listeners = [];
  #disposed = false;
  #engineChoice;

  constructor(elements, { runtime, graphs }) {
    this.#runtime = runtime;
    this.#engineChoice = EngineChoice.create(elements); // "Run with: my engine | the book's engine"
    const services = {
      runOptions: () => this.#engineChoice?.runOptions() ?? {},
      runtime,
      graphs,
      onRun: (block) => this.run(block),
      onRunFromTop: (block) => this.runFromTop(block),
      beforeBugRun: (block) => this.#runAboveIfNeeded(block),
      onRunWithAbove: (block) => this.#runWithAbove(block),
      definedAbove: (block, name) => this.#definedAbove(block, name),
    };
    this.#blocks = elements.map((element) => new RunnableBlock(element, services));
    this.#statusLine = this.#pageBar(elements[0]);
    this.#listen("status", () => this.#showStatus());
    this.#listen("restarted", () => this.#ranSinceStart.clear());
    this.#showStatus();
  }

  get blocks() {
    return this.#blocks;
  }

  /** Run one block, after the hidden set-up blocks above it that have not run yet. */
  async run(block) {
    if (!block.runsInBrowser) return;
    for (const hidden of this.#blocks.slice(0, block.index)) {
      if (hidden.hidden && hidden.runsInBrowser && !this.#ranSinceStart.has(hidden.index)) {
        if (!(await this.#runCounted(hidden))) return;
      }
    }
    await this.#runCounted(block);
  }

  /** Run every block from the top down to `block`; stop at the first one that goes wrong. */
  async runFromTop(block) {
    for (const each of this.#blocks.slice(0, block.index + 1)) {
      if (!each.runsInBrowser) continue;
      if (this.#disposed || !(await this.#runCounted(each))) return;
    }
  }

  /** Called when the reader leaves the page (instant navigation): its runs stop. */
  dispose() {
    this.#disposed = true;
    this.#engineChoice?.dispose();
    for (const [type, listener] of this.#listeners) this.#runtime.removeEventListener(type, listener);
    if (this.#blocks.some((block) => block.element.dataset.sgState !== "idle")) this.#runtime.stop();
  }

  /** The nearest block above `block` that the browser runs and whose code defines `name`. */
  #definedAbove(block, name) {
    return this.#blocks
      .slice(0, block.index)
      .reverse()
      .find((each) => each.runsInBrowser && definesName(each.code, name));
  }

  async #runCounted(block) {
    const result = await block.execute();
    const succeeded = block.succeeded(result);
    if (succeeded) this.#ranSinceStart.add(block.index);
    return succeeded;
  }

  /** Whether a block above `block` that the browser runs has not run since Python started. */
  #aboveNotRun(block) {
    const above = this.#blocks.slice(0, block.index).filter((each) => each.runsInBrowser);
    return above.some((each) => !this.#ranSinceStart.has(each.index));
  }

  /** Run from the top down to `block` unless every block above has run since Python started. */
  async #runAboveIfNeeded(block) {
    if (this.#aboveNotRun(block)) await this.runFromTop(block);
  }

  /** Run `block`, from the top if a block above has not run since Python started (a slider's run). */
  async #runWithAbove(block) {
    await (this.#aboveNotRun(block) ? this.runFromTop(block) : this.run(block));
  }

  #pageBar(firstBlock) {
    const bar = document.createElement("div");
    bar.className = "sg-page-bar";
    bar.setAttribute("role", "region");
    bar.setAttribute("aria-label", "Python in this page");
    const status = document.createElement("span");
    status.className = "sg-status";
    status.setAttribute("role", "status");
    const forget = "Start from an empty namespace: forget every variable the blocks defined";
    const restart = createButton("restart", "Restart Python", forget, async () => {
      restart.disabled = true;
      try {
        await this.#runtime.restart();
        this.#showStatus("Python restarted: every block starts from an empty namespace again.");
      } catch {
        this.#showStatus();
      } finally {
        restart.disabled = false;
      }
    });
    bar.append(status, restart);
    if (this.#engineChoice) bar.append(this.#engineChoice.element);
    firstBlock.before(bar);
    return status;
  }

  #showStatus(message) {
    const { status, failure, interruptible } = this.#runtime;
    this.#statusLine.dataset.status = status;
    let text = message ?? (status === STATUS.failed ? failure : STATUS_TEXT[status]);
    if (status === STATUS.ready && !interruptible && !message) {
      text += ` (Stop restarts Python here: ${this.#runtime.whyStopRestarts}.)`;
    }
    this.#statusLine.textContent = text;
  }

  #listen(type, listener) {
    this.#runtime.addEventListener(type, listener);
    this.#listeners.push([type, listener]);
  }
}
