// The page's buttons and the toolbar under an editor (web/shared/toolbar.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { createButton, createToolbar } from "../../../web/shared/toolbar.js";
import { installDom } from "../dom.mjs";

beforeEach(() => installDom());

describe("createButton", () => {
  test("makes a plain button of the page's class, named when given a name, that runs its action", () => {
    let clicks = 0;
    const button = createButton("restart", "Restart Python", "Start again", () => (clicks += 1));
    assert.equal(button.type, "button");
    assert.equal(button.className, "sg-button sg-button--restart");
    assert.equal(button.textContent, "Restart Python");
    assert.equal(button.title, "Start again");
    button.click();
    assert.equal(clicks, 1);
    assert.equal(createButton("", "Export", "Download", () => {}).className, "sg-button");
  });
});

describe("createToolbar", () => {
  test("appends each added button in order and records it by name", () => {
    const buttons = {};
    const { bar, add } = createToolbar(buttons);
    const run = add("run", "Run", "Run this block", () => {});
    add("stop", "Stop", "Stop the running code", () => {});
    assert.equal(bar.className, "sg-toolbar");
    assert.equal(buttons.run, run);
    assert.deepEqual(
      [...bar.children].map((button) => button.className),
      ["sg-button sg-button--run", "sg-button sg-button--stop"],
    );
  });
});
