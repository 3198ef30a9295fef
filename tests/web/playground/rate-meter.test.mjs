// The steps-per-second figure of a playing panel (web/playground/rate-meter.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { describePace, describeRate, RATE_WINDOW_MS, RateMeter } from "../../../web/playground/rate-meter.js";

test("the rate is the steps over the time since the start", () => {
  const meter = new RateMeter();
  meter.restart(0, 100);
  assert.equal(meter.add(500, 150), 100);
});

test("no rate before any time has passed", () => {
  const meter = new RateMeter();
  meter.restart(0, 0);
  assert.equal(meter.add(0, 10), null);
});

test("frames older than the window stop counting", () => {
  const meter = new RateMeter();
  meter.restart(0, 0);
  meter.add(1000, 1000); // fast at first
  meter.add(2000, 1100);
  assert.equal(meter.add(2000 + RATE_WINDOW_MS, 1100 + RATE_WINDOW_MS / 10), 100);
});

test("a rate reads as whole steps from 10 a second, one decimal below", () => {
  assert.equal(describeRate(123.4), "123 steps/s");
  assert.equal(describeRate(9.94), "9.9 steps/s");
});

test("the pace line gives both engines' milliseconds a step and how many times faster one is", () => {
  assert.equal(
    describePace({ yours_ms: 182.4, book_ms: 11.2 }),
    "Your engine: 182 ms a step; the book's engine on the same network, data and loss: 11 ms " +
      "(the book's is 16× as fast), measured here as it trains",
  );
  assert.match(describePace({ yours_ms: 4, book_ms: 8.5 }), /4\.0 ms a step; .*: 8\.5 ms \(yours is 2\.1× as fast\)/);
});
