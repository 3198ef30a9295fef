// "Show the code": the Python program the panel runs, written by scratchgrad.playground.generate_code.
//
// The program trains for as many steps as the panel has taken (100 before the first step) and
// prints the loss and accuracy the panel shows at that step. Copy puts it on the clipboard;
// "Run it here" runs it in the page's Python (the runtime of the code blocks), so the reader
// sees it print the panel's numbers. A prelude, when the panel gives one, runs first: with
// engine=yours it makes the reader's engine importable, as the exported file next to the
// program would.

import { createElement } from "../shared/elements.js";
import { createButton } from "../shared/toolbar.js";

const FIRST_STEPS = 100;

export class CodeView {
  element;
  #code;
  #output;
  #caption;
  #runButton;
  #load;
  #runtime;
  #prelude;
  #steps = 0;

  /**
   * @param {(steps: number) => Promise<string>} load fetches the program for a number of steps
   * @param {object | null} runtime the code blocks' PythonRuntime (null: no Run button)
   * @param {() => string | null} prelude Python to run before the program, or null for none
   */
  constructor(load, runtime, prelude = () => null) {
    this.#load = load;
    this.#runtime = runtime;
    this.#prelude = prelude;
    this.element = createElement("details", "sg-pg-code");
    const summary = createElement("summary", "", {}, "Show the code");
    this.#caption = createElement("p", "sg-pg-code-caption");
    const bar = createElement("div", "sg-pg-code-bar");
    const copy = createButton(null, "Copy", "Copy the program", () => this.#copy(copy));
    bar.append(copy);
    if (runtime) {
      this.#runButton = createButton(null, "Run it here", "Run the program in this page's Python", () => this.#run());
      bar.append(this.#runButton);
    }
    const pre = createElement("pre", "sg-pg-program");
    this.#code = createElement("code", "language-python");
    pre.append(this.#code);
    this.#output = createElement("pre", "sg-pg-code-output", { "aria-live": "polite" });
    this.#output.hidden = true;
    this.element.append(summary, this.#caption, bar, pre, this.#output);
    this.element.addEventListener("toggle", () => this.refresh());
  }

  /** The panel's step count changed (or its settings did): reload the program if it is shown. */
  update(steps) {
    this.#steps = steps;
    return this.refresh();
  }

  async refresh() {
    if (!this.element.open) return;
    const steps = this.#steps || FIRST_STEPS;
    try {
      this.#code.textContent = await this.#load(steps);
      this.#caption.textContent =
        `The program these settings stand for, trained for ${steps} steps` +
        (this.#steps ? " (the panel's step count)." : " (before the first step: 100).") +
        " It runs unchanged in plain Python and prints the loss and accuracy of its last step.";
    } catch (error) {
      this.#code.textContent = "";
      this.#caption.textContent = `No program: ${error.message}`;
    }
  }

  /** Forget the program shown (the settings are not usable). */
  clear(reason) {
    this.#code.textContent = "";
    this.#caption.textContent = reason;
  }

  async #run() {
    const code = this.#code.textContent;
    if (!code) return;
    this.#runButton.disabled = true;
    this.#output.hidden = false;
    this.#output.textContent = "Waiting for Python…";
    let placeholder = true; // "Waiting…" / "Running…" until the first output replaces it
    const prelude = this.#prelude();
    const result = await this.#runtime.run(prelude ? prelude + code : code, {
      namespace: "playground-code",
      filename: "<playground program>",
      onStart: () => (this.#output.textContent = "Running…"),
      onOutput: (stream, text) => {
        if (placeholder) this.#output.textContent = "";
        placeholder = false;
        this.#output.textContent += text;
      },
    });
    if (placeholder) this.#output.textContent = "";
    if (result.traceback) this.#output.textContent += result.traceback;
    else if (result.message) this.#output.textContent += `\n${result.message}`;
    else if (result.outcome !== "ok") this.#output.textContent += `\n(${result.outcome})`;
    this.#runButton.disabled = false;
  }

  async #copy(copyButton) {
    try {
      await navigator.clipboard.writeText(this.#code.textContent);
      copyButton.textContent = "Copied";
    } catch {
      copyButton.textContent = "Copy failed";
    }
    setTimeout(() => (copyButton.textContent = "Copy"), 1500);
  }
}
