// Fitting a drawing to its column (web/graph/graph-view.js): how far it may shrink.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MIN_TEXT_PX, fittedWidths } from "../../../web/graph/graph-view.js";

test("a drawing may shrink until its text is MIN_TEXT_PX, and never grows past its drawn width", () => {
  // 600 pt wide (800 px), a 1000-unit viewBox, 12-unit text: 9.6 px as drawn
  const { natural, readable } = fittedWidths({ width: 600, viewBoxWidth: 1000, fontSize: 12 });
  assert.equal(natural, 800);
  assert.equal(readable, 800); // its text is already under MIN_TEXT_PX: it may not shrink at all
  const big = fittedWidths({ width: 1500, viewBoxWidth: 1000, fontSize: 12 }); // 24 px text
  assert.equal(big.natural, 2000);
  assert.equal(big.readable, (1000 * MIN_TEXT_PX) / 12); // text of exactly MIN_TEXT_PX
});

test("a drawing without text keeps its drawn width as its smallest", () => {
  const { natural, readable } = fittedWidths({ width: 300, viewBoxWidth: 300, fontSize: 0 });
  assert.equal(readable, natural);
});
