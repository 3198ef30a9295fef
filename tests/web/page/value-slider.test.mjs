// A slider for one number of a block's code (web/page/value-slider.js).

import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";
import { createSlider, formatted, valueIn, withValue } from "../../../web/page/value-slider.js";
import { installDom } from "../dom.mjs";

const CODE = "lr = 0.1  # the learning rate\n\nx = 3.0\nfor step in range(8):\n    x = x - lr * 2 * x\n";
const SPEC = { name: "lr", min: 0.01, max: 0.4, step: 0.01, value: 0.1 };

describe("reading and writing the number", () => {
  test("finds the number on the line of its own that sets the name, comment and all", () => {
    assert.equal(valueIn(CODE, "lr"), 0.1);
    assert.equal(valueIn("lr = 2 * 0.05\n", "lr"), null); // not a plain number
    assert.equal(valueIn("    lr = 0.1\n", "lr"), null); // not at the left margin
    assert.equal(valueIn("slr = 0.1\n", "lr"), null);
  });

  test("replaces only that number, keeping the rest of the code as the reader left it", () => {
    assert.equal(withValue(CODE, "lr", "0.35"), CODE.replace("lr = 0.1 ", "lr = 0.35 "));
    assert.equal(withValue("x = 1\n", "lr", "0.35"), null);
  });

  test("writes as many decimals as the step has", () => {
    assert.equal(formatted(0.1 + 0.02, 0.01), "0.12");
    assert.equal(formatted(3, 1), "3");
  });
});

describe("createSlider", () => {
  let window;
  beforeEach(() => (window = installDom()));

  function editorWith(code) {
    const editor = { code, getCode: () => editor.code, setCode: (next) => (editor.code = next) };
    return editor;
  }

  function slide(input, value) {
    input.value = value;
    input.dispatchEvent(new window.Event("input"));
  }

  test("is a labelled range input that starts at the number in the code", () => {
    const { row } = createSlider(SPEC, editorWith(CODE), () => {});
    document.body.append(row);
    const input = row.querySelector("input[type=range]");
    assert.equal(row.querySelector(`label[for="${input.id}"]`).textContent, "lr");
    assert.equal(input.value, "0.1");
    assert.equal(row.querySelector("output").textContent, "0.10");
    assert.equal(input.getAttribute("aria-valuetext"), "lr = 0.10");
  });

  test("moving it edits the code at once and runs the block once it rests", () => {
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      const editor = editorWith(CODE);
      let runs = 0;
      const { row } = createSlider(SPEC, editor, () => (runs += 1));
      const input = row.querySelector("input");
      slide(input, "0.2");
      slide(input, "0.35");
      assert.equal(valueIn(editor.code, "lr"), 0.35);
      assert.equal(editor.code, CODE.replace("lr = 0.1 ", "lr = 0.35 "));
      assert.equal(runs, 0);
      mock.timers.tick(300);
      assert.equal(runs, 1);
    } finally {
      mock.timers.reset();
    }
  });

  test("follows the reader's own edits, and says so when the line is gone", () => {
    const editor = editorWith(CODE);
    const { row, follow } = createSlider(SPEC, editor, () => {});
    const input = row.querySelector("input");
    editor.code = CODE.replace("lr = 0.1", "lr = 0.3");
    follow();
    assert.equal(input.value, "0.3");
    editor.code = "x = 3.0\n";
    follow();
    assert.equal(input.disabled, true);
    assert.match(row.querySelector(".sg-slider-note").textContent, /No line “lr = …” in the code/);
  });
});
