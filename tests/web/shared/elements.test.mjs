// An element, its class, attributes and text in one call (web/shared/elements.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { createElement } from "../../../web/shared/elements.js";
import { installDom } from "../dom.mjs";

beforeEach(() => installDom());

describe("createElement", () => {
  test("makes the tag of the class with every attribute and the text", () => {
    const note = createElement("span", "sg-edited", { title: "Your version", role: "status" }, "edited");
    assert.equal(note.tagName, "SPAN");
    assert.equal(note.className, "sg-edited");
    assert.equal(note.getAttribute("title"), "Your version");
    assert.equal(note.getAttribute("role"), "status");
    assert.equal(note.textContent, "edited");
  });

  test("leaves the text empty and sets no attribute when given none", () => {
    const legend = createElement("legend", "sg-engine-choice__legend");
    assert.equal(legend.tagName, "LEGEND");
    assert.equal(legend.textContent, "");
    assert.deepEqual(legend.getAttributeNames(), ["class"]);
  });
});
