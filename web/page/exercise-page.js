// The exercises of one page: their blocks, the chapter's progress line, the home page's engine.
//
// Created for every page Material's instant navigation shows; dispose() when the reader leaves.

import { ExerciseBlock } from "./exercise-block.js";
import { WORK_CHANGED } from "./exercise-work.js";
import { chapterProgress, engineProgress } from "./progress.js";

export class ExercisePage {
  /** Enhance the exercises and engine summary in `root`; null when the page has neither. */
  static enhance(root, { runtime }) {
    const elements = [...root.querySelectorAll("section.sg-exercise[data-sg-exercise]")];
    const engine = root.querySelector(".sg-engine[data-sg-engine]");
    return elements.length || engine ? new ExercisePage(root, elements, engine, runtime) : null;
  }

  #runtime;
  #views = [];
  #onChange = () => this.refresh();

  constructor(root, elements, engine, runtime) {
    this.#runtime = runtime;
    this.blocks = elements.map((element) => new ExerciseBlock(element, { runtime }));
    if (this.blocks.length) {
      runtime.start().catch(() => {}); // a check reports it if Python cannot start
      this.#views.push(chapterProgress(root, this.blocks.map((block) => block.id)));
    }
    if (engine) this.#views.push(engineProgress(engine));
    window.addEventListener(WORK_CHANGED, this.#onChange);
    window.addEventListener("storage", this.#onChange);
  }

  /** Redraw every progress view (the reader's work changed here or in another tab). */
  refresh() {
    for (const block of this.blocks) block.refresh();
    for (const view of this.#views) view.update();
  }

  dispose() {
    window.removeEventListener(WORK_CHANGED, this.#onChange);
    window.removeEventListener("storage", this.#onChange);
    for (const block of this.blocks) block.dispose();
  }
}
