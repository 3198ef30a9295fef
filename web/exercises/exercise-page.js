// The exercises of one page: their blocks, the chapter's progress line, the home page's engine.
//
// Created for every page Material's instant navigation shows; dispose() when the reader leaves.

import { BookVersions } from "./book-version.js";
import { ExerciseBlock } from "./exercise-block.js";
import { WORK_CHANGED } from "../shared/exercise-work.js";
import { chapterProgress, engineProgress } from "./progress.js";
import { createElement } from "../shared/elements.js";
import { createButton } from "../shared/toolbar.js";
import { download, exportWork, FILE_NAME, importWork } from "./work-file.js";

export class ExercisePage {
  /** Enhance the exercises and engine summary in `root`; null when the page has neither. */
  static enhance(root, { runtime, graphs }) {
    const elements = [...root.querySelectorAll("section.sg-exercise[data-sg-exercise]")];
    const engine = root.querySelector(".sg-engine[data-sg-engine]");
    return elements.length || engine ? new ExercisePage(root, elements, engine, { runtime, graphs }) : null;
  }

  #runtime;
  #views = [];
  #books;
  #onChange = () => this.refresh();

  constructor(root, elements, engine, { runtime, graphs }) {
    this.#runtime = runtime;
    this.blocks = elements.map((element) => new ExerciseBlock(element, { runtime, graphs }));
    this.#books = BookVersions.enhance(root);
    if (this.blocks.length) {
      this.#views.push(
        chapterProgress(
          root,
          this.blocks.map((block) => block.id),
        ),
      );
    }
    if (engine) {
      this.#views.push(engineProgress(engine));
      engine.append(this.#workFileActions());
    }
    window.addEventListener(WORK_CHANGED, this.#onChange);
    window.addEventListener("storage", this.#onChange);
  }

  /** Redraw every progress view (the reader's work changed here or in another tab). */
  refresh() {
    for (const block of this.blocks) block.refresh();
    this.#books?.update();
    for (const view of this.#views) view.update();
  }

  /** Export and Import buttons for the reader's work as one .py file, and a line saying what happened. */
  #workFileActions() {
    const bar = document.createElement("div");
    bar.className = "sg-engine__actions";
    const said = createElement("span", "sg-engine__said", { role: "status" });
    const exportTitle = `Download your code of every exercise as ${FILE_NAME}`;
    const exportButton = createButton("", "Export my engine", exportTitle, async () => {
      said.textContent = "Writing the file…";
      try {
        download(await exportWork(this.#runtime));
        said.textContent = `Saved as ${FILE_NAME}.`;
      } catch (error) {
        said.textContent = `Export failed: ${error.message}`;
      }
    });
    const picker = document.createElement("input");
    picker.type = "file";
    picker.accept = ".py,text/x-python,text/plain";
    picker.className = "sg-engine__file";
    picker.id = "sg-engine-import";
    const label = document.createElement("label");
    label.className = "sg-button";
    label.htmlFor = picker.id;
    label.textContent = "Import an engine file";
    label.title = "Load an exported .py file: its pieces replace your code of those exercises, then get checked";
    picker.addEventListener("change", async () => {
      const [file] = picker.files;
      if (!file) return;
      said.textContent = `Reading and checking ${file.name}…`;
      try {
        const { imported, passed, apart } = await importWork(this.#runtime, await file.text());
        const elsewhere = apart ? ` ${apart} checked on the command line only, not here.` : "";
        said.textContent = `Imported ${imported} pieces from ${file.name}; ${passed} pass their checks.${elsewhere}`;
      } catch (error) {
        said.textContent = `Could not import ${file.name}: ${error.message}`;
      } finally {
        picker.value = "";
      }
    });
    bar.append(exportButton, picker, label, said);
    return bar;
  }

  dispose() {
    window.removeEventListener(WORK_CHANGED, this.#onChange);
    window.removeEventListener("storage", this.#onChange);
    for (const block of this.blocks) block.dispose();
  }
}
