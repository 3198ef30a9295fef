// What a playground panel allows in each state (web/playground/panel-states.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { allows, PANEL_STATE, stateText } from "../../../web/playground/panel-states.js";

const ACTIONS = ["play", "pause", "step", "reset", "edit"];

test("each state allows exactly its actions", () => {
  const allowed = Object.fromEntries(
    Object.values(PANEL_STATE).map((state) => [state, ACTIONS.filter((action) => allows(state, action))]),
  );
  assert.deepEqual(allowed, {
    loading: [],
    failed: [],
    invalid: ["edit"],
    paused: ["play", "step", "reset", "edit"],
    playing: ["pause", "reset", "edit"],
    diverged: ["reset", "edit"],
    disposed: [],
  });
});

test("the status line names the states that need words", () => {
  assert.equal(stateText(PANEL_STATE.playing), "Training…");
  assert.equal(stateText(PANEL_STATE.diverged), "Paused: training diverged.");
  assert.equal(stateText(PANEL_STATE.paused), "");
});
