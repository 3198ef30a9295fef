// Batching what Python prints (web/worker/output-batcher.js), on a clock the test moves by hand.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { createOutputBatcher, FLUSH_INTERVAL_MS } from "../../../web/worker/output-batcher.js";

const bytes = (text) => new TextEncoder().encode(text);

let sent;
let clock;
let output;

beforeEach(() => {
  sent = [];
  clock = 1000;
  output = createOutputBatcher(
    (stream, text) => sent.push([stream, text]),
    () => clock,
  );
  output.startRun();
});

test("the first write of a run goes out at once and reports its bytes written", () => {
  assert.equal(output.write("stdout", bytes("1\n")), 2);
  assert.deepEqual(sent, [["stdout", "1\n"]]);
});

test("writes within FLUSH_INTERVAL_MS wait, then go out together with the next one", () => {
  output.write("stdout", bytes("a"));
  clock += 1;
  output.write("stdout", bytes("b"));
  output.write("stdout", bytes("c"));
  assert.deepEqual(sent, [["stdout", "a"]]);
  clock += FLUSH_INTERVAL_MS;
  output.write("stdout", bytes("d"));
  assert.deepEqual(sent, [
    ["stdout", "a"],
    ["stdout", "bcd"],
  ]);
});

test("flush sends what waits, in the order the streams were written", () => {
  output.write("stdout", bytes("start "));
  output.write("stdout", bytes("a"));
  output.write("stderr", bytes("warning"));
  output.write("stdout", bytes("b"));
  output.flush();
  assert.deepEqual(sent, [
    ["stdout", "start "],
    ["stdout", "a"],
    ["stderr", "warning"],
    ["stdout", "b"],
  ]);
});

test("a character split across two writes arrives whole", () => {
  const euro = bytes("€");
  output.write("stdout", euro.slice(0, 1));
  output.write("stdout", euro.slice(1));
  output.flush();
  assert.equal(sent.map(([, text]) => text).join(""), "€");
});

test("a flood of text goes out without waiting for the interval", () => {
  output.write("stdout", bytes("first"));
  output.write("stdout", bytes("x".repeat(1 << 16)));
  assert.equal(sent.length, 2);
});

test("a new run's first write goes out at once again", () => {
  output.write("stdout", bytes("run 1"));
  output.startRun();
  output.write("stdout", bytes("run 2"));
  assert.deepEqual(sent, [
    ["stdout", "run 1"],
    ["stdout", "run 2"],
  ]);
});
