// Progress shown outside the exercises: a chapter's own line, and the reader's whole engine.
//
// Both read the records of exercise-work.js only, so they can never disagree with what the
// exercises show; they are redrawn whenever that work changes (in this tab or another one).

import { allWork, progressOf } from "../shared/exercise-work.js";

/** "k of n passed" over the exercises `ids`, from the reader's records. */
function passedCount(ids, work = allWork()) {
  return ids.filter((id) => progressOf(work[id]) === "passed").length;
}

/**
 * The line under a chapter's title: its exercises and how far the reader got.
 * Returns {update(), element}; the element is the build's empty line under the page's <h1>
 * (hooks/exercises.py: there from the first layout, it shifts nothing when filled).
 */
export function chapterProgress(root, ids) {
  const line = root.querySelector(".sg-chapter-progress");
  const update = () => {
    const work = allWork();
    const passed = passedCount(ids, work);
    const tried = ids.filter((id) => progressOf(work[id]) === "tried").length;
    const what = ids.length === 1 ? "1 exercise" : `${ids.length} exercises`;
    let text = `Your turn in this chapter: ${what}, ${passed} passed`;
    if (tried) text += `, ${tried} tried`;
    line.textContent = `${text}.`;
    line.dataset.sgPassed = String(passed);
  };
  update();
  return { element: line, update };
}

/** The home page's "your engine: k of N pieces", each piece with its state. */
export function engineProgress(container) {
  const items = [...container.querySelectorAll("[data-sg-piece]")];
  const ids = items.map((item) => item.dataset.sgPiece);
  const summary = container.querySelector(".sg-engine__summary > strong");
  const update = () => {
    const work = allWork();
    const passed = passedCount(ids, work);
    summary.textContent = `${passed} of ${ids.length}`;
    container.dataset.sgPassed = String(passed);
    for (const item of items) {
      const progress = progressOf(work[item.dataset.sgPiece]);
      const label = item.querySelector(".sg-progress");
      label.textContent = progress;
      label.dataset.progress = progress.replace(" ", "-");
    }
  };
  update();
  return { element: container, update };
}
