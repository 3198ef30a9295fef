// How a block says its run ended (web/page/run-notes.js): notes under the output, and the
// sentence a screen reader hears.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { announcement, missingName, reportRun } from "../../../web/page/run-notes.js";

const TRACEBACK =
  "Traceback (most recent call last):\n  File \"<p block 2>\", line 1\nNameError: name 'L' is not defined\n";

/** An OutputView that records what it is given. */
function recordingOutput() {
  const written = [];
  return {
    written,
    error: (text) => written.push(["error", text]),
    note: (text, kind) => written.push(["note", text, kind]),
  };
}

describe("reportRun", () => {
  test("writes the traceback, and a note for a run that ended early", () => {
    const output = recordingOutput();
    reportRun(output, { outcome: "stopped", traceback: "KeyboardInterrupt\n" }, "no isolation");
    assert.deepEqual(output.written, [
      ["error", "KeyboardInterrupt\n"],
      ["note", "Stopped. Everything defined before the stop is still there.", "info"],
    ]);
  });

  test("says why Python restarted, and what a crash cost", () => {
    const output = recordingOutput();
    reportRun(output, { outcome: "reset" }, "no isolation");
    reportRun(output, { outcome: "crashed", message: "Python crashed: stack" }, "");
    assert.match(output.written[0][1], /^Stopped by restarting Python \(no isolation\)/);
    assert.deepEqual(output.written[1], [
      "note",
      "Python crashed: stack. Python was restarted: the variables of the blocks above are gone.",
      "error",
    ]);
  });

  test("writes nothing for a run that went well", () => {
    const output = recordingOutput();
    reportRun(output, { outcome: "ok", asExpected: true }, "");
    assert.deepEqual(output.written, []);
  });
});

describe("missingName", () => {
  test("is the name of a NameError, and nothing for any other end", () => {
    assert.equal(missingName({ outcome: "error", traceback: TRACEBACK }), "L");
    assert.equal(missingName({ outcome: "error", traceback: "ZeroDivisionError: division by zero" }), undefined);
    assert.equal(missingName({ outcome: "stopped", traceback: TRACEBACK }), undefined);
  });
});

describe("announcement", () => {
  const options = { number: 3, printed: "", whyStopRestarts: "" };

  test("tells what the block printed, or that it printed nothing", () => {
    assert.equal(announcement({ outcome: "ok" }, { ...options, printed: "42\n" }), "Block 3 ran. Output: 42\n");
    assert.equal(announcement({ outcome: "ok" }, options), "Block 3 ran, printing nothing.");
  });

  test("follows Python's verdict on an error: expected, or a failure", () => {
    const error = { outcome: "error", traceback: TRACEBACK };
    assert.equal(
      announcement({ ...error, asExpected: true }, options),
      "Block 3 raised, as expected: NameError: name 'L' is not defined",
    );
    assert.equal(
      announcement({ ...error, asExpected: false }, options),
      "Block 3 failed: NameError: name 'L' is not defined",
    );
  });

  test("cuts a long output, saying where the rest is", () => {
    const text = announcement({ outcome: "ok" }, { ...options, printed: "x".repeat(1000) });
    assert.ok(text.endsWith("… (more in the output)"));
    assert.equal(text.length, 300 + "… (more in the output)".length);
  });
});
