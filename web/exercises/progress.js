// Progress shown outside the exercises: a chapter's own line, and the reader's whole engine.
//
// Both read the records of exercise-work.js only, so they can never disagree with what the
// exercises show; they are redrawn whenever that work changes (in this tab or another one).

import { allWork, checkedOnTheCommandLine, ON_THE_COMMAND_LINE, progressOf } from "../shared/exercise-work.js";

/** "k of n passed" over the exercises `ids`, from the reader's records. */
function passedCount(ids, work = allWork()) {
  return ids.filter((id) => progressOf(work[id], id) === "passed").length;
}

/** The words for how many of a chapter's exercises there are, and their state. */
function chapterLine(ids, work) {
  const here = ids.filter((id) => !checkedOnTheCommandLine(id));
  const apart = ids.length - here.length;
  const what = ids.length === 1 ? "1 exercise" : `${ids.length} exercises`;
  const parts = [];
  if (here.length) parts.push(`${passedCount(here, work)} passed`);
  const tried = here.filter((id) => progressOf(work[id], id) === "tried").length;
  if (tried) parts.push(`${tried} tried`);
  if (apart) parts.push(here.length ? `${apart} ${ON_THE_COMMAND_LINE}` : ON_THE_COMMAND_LINE);
  return `Your turn in this chapter: ${what}, ${parts.join(", ")}.`;
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
    line.textContent = chapterLine(ids, work);
    line.dataset.sgPassed = String(passedCount(ids, work));
  };
  update();
  return { element: line, update };
}

/**
 * The home page's "your engine: k of N pieces", each piece with its state; N counts the pieces the
 * page can check, and those checked on the command line are listed apart (the build's markup).
 */
export function engineProgress(container) {
  const items = [...container.querySelectorAll("[data-sg-piece]")];
  const ids = items.map((item) => item.dataset.sgPiece).filter((id) => !checkedOnTheCommandLine(id));
  const summary = container.querySelector(".sg-engine__summary > strong");
  const update = () => {
    const work = allWork();
    const passed = passedCount(ids, work);
    summary.textContent = `${passed} of ${ids.length}`;
    container.dataset.sgPassed = String(passed);
    for (const item of items) {
      const progress = progressOf(work[item.dataset.sgPiece], item.dataset.sgPiece);
      const label = item.querySelector(".sg-progress");
      label.textContent = progress;
      label.dataset.progress = progress.replaceAll(" ", "-");
    }
  };
  update();
  return { element: container, update };
}
