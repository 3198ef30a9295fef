// The states of a playground panel, named once, and what the reader can do in each.
//
// The panel (panel.js) moves between them; its buttons, its settings form and its status line
// follow from the state alone, so they never disagree with it.

export const PANEL_STATE = Object.freeze({
  loading: "loading", // Python is starting
  failed: "failed", // Python could not start
  invalid: "invalid", // the settings have problems: nothing to train
  paused: "paused", // a network to train, not training
  playing: "playing", // training, frames streaming in
  diverged: "diverged", // training stopped on a loss that is not a number
  disposed: "disposed", // the reader left the page
});

const { loading, invalid, paused, playing, diverged } = PANEL_STATE;

/** The states in which each action of the reader does something. */
const ALLOWED = {
  play: [paused],
  pause: [playing],
  step: [paused],
  reset: [paused, playing, diverged],
  edit: [invalid, paused, playing, diverged], // change the settings (or import a model's)
  export: [paused, playing, diverged], // save the trained network
};

/** The status line's text in each state, unless the panel has a message of its own. */
const STATE_TEXT = {
  [loading]: "Loading Python…",
  [invalid]: "Fix the settings marked above to train.",
  [playing]: "Training…",
  [diverged]: "Paused: training diverged.",
};

/** True when `action` ("play", "pause", "step", "reset", "edit" or "export") does something in `state`. */
export function allows(state, action) {
  return ALLOWED[action].includes(state);
}

/** The status line's text for `state` ("" when the state needs no words). */
export function stateText(state) {
  return STATE_TEXT[state] ?? "";
}
