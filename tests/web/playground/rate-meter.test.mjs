// The steps-per-second figure of a playing panel (web/playground/rate-meter.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { describeRate, RATE_WINDOW_MS, RateMeter } from "../../../web/playground/rate-meter.js";

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
