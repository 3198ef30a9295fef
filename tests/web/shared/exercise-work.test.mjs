// The one rule of "passed" (web/shared/exercise-work.js): a piece passes while its latest
// checked code passes, and everything that counts pieces or runs them asks that rule.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { JSDOM } from "jsdom";
import {
  allPassed,
  checkedOnTheCommandLine,
  exportedCode,
  loadWork,
  ON_THE_COMMAND_LINE,
  passedPieces,
  passingCode,
  progressOf,
  saveWork,
} from "../../../web/shared/exercise-work.js";

// The bundle's define (hooks/pyodide_runtime.py, from exercises.registry.COMMAND_LINE_ONLY).
globalThis.EXERCISES_ON_THE_COMMAND_LINE = ["torch-port"];

const GOOD = "def f():\n    return 1\n";
const BAD = "def f():\n    return 2\n";

beforeEach(() => {
  const { window } = new JSDOM("<!doctype html><body></body>", { url: "https://example.org/" });
  for (const name of ["window", "localStorage", "CustomEvent"]) {
    globalThis[name] = name === "window" ? window : window[name];
  }
});

/** The records a Check leaves, as exercise-block.js writes them. */
function check(id, code, verdict) {
  const passed = verdict === "pass" ? code : (loadWork(id)?.passed ?? null);
  saveWork(id, { code, stub: "", checked: true, passed, lastChecked: code });
}

describe("passingCode and progressOf", () => {
  test("a passed piece counts, and its passing code is what the reader's engine runs", () => {
    check("slope", GOOD, "pass");
    assert.equal(passingCode(loadWork("slope")), GOOD);
    assert.equal(progressOf(loadWork("slope")), "passed");
    assert.deepEqual(allPassed(), { slope: GOOD });
    assert.deepEqual(passedPieces(["slope", "backward"]), { slope: GOOD });
  });

  test("a failing check of a passed piece stops it counting everywhere, and keeps the passing code", () => {
    check("slope", GOOD, "pass");
    check("slope", BAD, "fail");
    const record = loadWork("slope");
    assert.equal(passingCode(record), null);
    assert.equal(progressOf(record), "tried");
    assert.deepEqual(allPassed(), {});
    assert.deepEqual(passedPieces(["slope"]), {});
    assert.equal(record.passed, GOOD); // kept for "Put back my passing version"
    check("slope", GOOD, "pass");
    assert.equal(progressOf(loadWork("slope")), "passed");
  });

  test("an edit not checked yet changes nothing: the latest checked code decides", () => {
    check("slope", GOOD, "pass");
    saveWork("slope", { code: BAD });
    assert.equal(progressOf(loadWork("slope")), "passed");
    assert.equal(passingCode(loadWork("slope")), GOOD);
  });

  test("a record from before lastChecked was kept counts its passed piece", () => {
    localStorage.setItem(
      "scratchgrad:exercise:slope",
      JSON.stringify({ code: BAD, stub: "", checked: true, passed: GOOD }),
    );
    assert.equal(passingCode(loadWork("slope")), GOOD);
  });
});

describe("exportedCode", () => {
  test("is the latest checked code, so the CLI checks what the page's verdict is about", () => {
    check("slope", GOOD, "pass");
    saveWork("slope", { code: BAD });
    assert.equal(exportedCode(loadWork("slope")), GOOD);
    check("slope", BAD, "fail");
    assert.equal(exportedCode(loadWork("slope")), BAD);
  });

  test("is the editor's code for a piece never checked", () => {
    saveWork("slope", { code: BAD });
    assert.equal(exportedCode(loadWork("slope")), BAD);
  });
});

describe("a piece checked on the command line only", () => {
  test("never counts here, whatever its record says, and its code is still exported", () => {
    check("slope", GOOD, "pass");
    check("torch-port", GOOD, "pass"); // a record that claims a pass: the page could not have checked it
    assert.equal(checkedOnTheCommandLine("torch-port"), true);
    assert.equal(checkedOnTheCommandLine("slope"), false);
    assert.equal(passingCode(loadWork("torch-port"), "torch-port"), null);
    assert.equal(progressOf(loadWork("torch-port"), "torch-port"), ON_THE_COMMAND_LINE);
    assert.equal(progressOf(null, "torch-port"), ON_THE_COMMAND_LINE);
    assert.deepEqual(allPassed(), { slope: GOOD });
    assert.deepEqual(passedPieces(["slope", "torch-port"]), { slope: GOOD });
    assert.equal(exportedCode(loadWork("torch-port")), GOOD);
  });

  test("written but never checked: Export writes the editor's code", () => {
    saveWork("torch-port", { code: BAD, stub: "" });
    assert.equal(exportedCode(loadWork("torch-port")), BAD);
    assert.equal(progressOf(loadWork("torch-port"), "torch-port"), ON_THE_COMMAND_LINE);
  });
});
