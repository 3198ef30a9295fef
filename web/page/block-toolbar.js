// A runnable block's row of buttons (Run, Run from top, Stop, Reset code, Copy) and the short
// texts beside them: "edited", the run's state, and the hidden announcer a screen reader hears.

import { createElement } from "../shared/elements.js";
import { createToolbar } from "../shared/toolbar.js";

const COPIED_MS = 1500;

/**
 * The toolbar; `buttons` receives each button by name. `actions` are the block's: run, runFromTop
 * (offered when `fromTop`), stop, reset and `code()` (what Copy copies).
 */
export function createBlockToolbar(buttons, { fromTop, run, runFromTop, stop, reset, code }) {
  const { bar, add: button } = createToolbar(buttons);
  button("run", "Run", "Run this block (Ctrl+Enter or ⌘+Enter in the editor)", run);
  if (fromTop)
    button("from-top", "Run from top", "Run every block of the page from the first down to this one", runFromTop);
  button("stop", "Stop", "Stop the running code", stop).hidden = true;
  button("reset", "Reset code", "Put back the block's original code", reset);
  button("copy", "Copy", "Copy the code", () => copy(buttons.copy, code()));
  const edited = createElement(
    "span",
    "sg-edited",
    { title: "Your version of this block, kept in this browser" },
    "edited",
  );
  const state = createElement("span", "sg-block-state", { "aria-live": "polite" });
  const announcer = createElement("span", "sg-visually-hidden", { role: "status" });
  bar.append(edited, state, announcer);
  return { bar, edited, state, announcer };
}

async function copy(button, text) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Copy failed";
  }
  setTimeout(() => (button.textContent = "Copy"), COPIED_MS);
}
