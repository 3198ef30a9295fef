// "Run with: my engine | the book's engine" (web/page/engine-choice.js): what it says, what a run gets.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { JSDOM } from "jsdom";
import { BOOK, EngineChoice, MINE, describePieces, loadChoice, piecesOf } from "../../../web/page/engine-choice.js";

// The bundle's define (hooks/pyodide_runtime.py, from exercises.registry.COMMAND_LINE_ONLY).
globalThis.EXERCISES_ON_THE_COMMAND_LINE = ["torch-port"];

const PIECES = [
  { id: "value-graph", title: "A Value that remembers how it was made", chapter: "value-object" },
  { id: "backward", title: "backward()", chapter: "automatic-backward" },
];

/** A page with storage (jsdom keeps localStorage only for a real origin). */
function installPage() {
  const { window } = new JSDOM("<!doctype html><body></body>", { url: "https://example.org/" });
  for (const name of ["window", "document", "localStorage", "CustomEvent"]) {
    globalThis[name] = name === "window" ? window : window[name];
  }
}

function block(pieces) {
  const element = document.createElement("div");
  if (pieces) element.dataset.sgEngine = JSON.stringify(pieces);
  return element;
}

beforeEach(() => installPage());

describe("piecesOf", () => {
  test("lists each piece once, in the order the blocks give them", () => {
    assert.deepEqual(
      piecesOf([block([PIECES[0]]), block(PIECES)]).map((piece) => piece.id),
      ["value-graph", "backward"],
    );
  });
});

describe("describePieces", () => {
  test("names the reader's pieces and the book's that stand in for those not passed", () => {
    const text = describePieces(PIECES, new Set(["value-graph"]), MINE);
    assert.match(text, /run on your pieces: “A Value that remembers how it was made”\./);
    assert.match(text, /Not passed yet, so the book's: “backward\(\)”\./);
  });

  test("names a piece whose latest check failed as running the book's", () => {
    const text = describePieces(PIECES, new Set(["value-graph"]), MINE, new Set(["backward"]));
    assert.match(text, /Your latest check failed, so the book's: “backward\(\)”\./);
    assert.doesNotMatch(text, /Not passed yet/);
  });

  test("says so when none is passed, and says nothing of the reader's with the book's engine", () => {
    assert.match(describePieces(PIECES, new Set(), MINE), /passed none of the pieces/);
    assert.doesNotMatch(describePieces(PIECES, new Set(["backward"]), BOOK), /your/);
  });
});

describe("EngineChoice", () => {
  test("is made only for a page with a block that can run on the reader's engine", () => {
    assert.equal(EngineChoice.create([block(null)]), null);
    assert.ok(EngineChoice.create([block(null), block(PIECES)]));
  });

  test("starts with the book's engine, and a run then gets nothing of the reader's", () => {
    const choice = EngineChoice.create([block(PIECES)]);
    assert.equal(loadChoice(), BOOK);
    assert.deepEqual(choice.runOptions(), {});
  });

  test("my engine: the choice is kept, announced, and a run gets the passed code of the page's pieces only", () => {
    const passed = (code) => JSON.stringify({ code, stub: "", checked: true, passed: code });
    localStorage.setItem("scratchgrad:exercise:backward", passed("class Value(Value): ..."));
    localStorage.setItem("scratchgrad:exercise:slope", passed("def slope(): ..."));
    localStorage.setItem("scratchgrad:engine", BOOK); // the reader chose the book's once
    const marked = block(PIECES);
    const choice = EngineChoice.create([marked, block(null)]);
    assert.equal(marked.classList.contains("sg-runnable--yours"), false);
    const mine = choice.element.querySelector(`input[value="${MINE}"]`);
    mine.checked = true;
    mine.dispatchEvent(new window.Event("change"));
    assert.equal(loadChoice(), MINE);
    assert.deepEqual(JSON.parse(choice.runOptions().yours), { backward: "class Value(Value): ..." });
    assert.match(choice.element.querySelector("[role=status]").textContent, /^The next runs use your engine\./);
    assert.equal(choice.element.dataset.sgChoice, MINE);
    assert.equal(marked.classList.contains("sg-runnable--yours"), true);
    assert.equal(EngineChoice.create([block(PIECES)]).element.querySelector(`input[value="${MINE}"]`).checked, true);
  });

  test("my engine is the default from the first piece that counts, until the reader chooses", () => {
    const choice = EngineChoice.create([block(PIECES)]);
    assert.equal(choice.element.dataset.sgChoice, BOOK);
    const record = { code: "x = 1", stub: "", checked: true, passed: "x = 1", lastChecked: "x = 1" };
    localStorage.setItem("scratchgrad:exercise:slope", JSON.stringify(record));
    window.dispatchEvent(new CustomEvent("scratchgrad:exercise-work", { detail: { id: "slope" } }));
    assert.equal(loadChoice(), MINE);
    assert.equal(choice.element.dataset.sgChoice, MINE);
    assert.equal(choice.element.querySelector(`input[value="${MINE}"]`).checked, true);
    localStorage.setItem("scratchgrad:engine", BOOK);
    assert.equal(loadChoice(), BOOK);
  });

  test("a piece whose latest check failed is not the reader's: the default stays the book's", () => {
    const record = { code: "y = 2", stub: "", checked: true, passed: "x = 1", lastChecked: "y = 2" };
    localStorage.setItem("scratchgrad:exercise:backward", JSON.stringify(record));
    assert.equal(loadChoice(), BOOK);
    localStorage.setItem("scratchgrad:engine", MINE);
    const choice = EngineChoice.create([block(PIECES)]);
    assert.deepEqual(JSON.parse(choice.runOptions().yours), {});
    assert.match(choice.element.querySelector(".sg-engine-choice__pieces").textContent, /latest check failed/);
  });
});
