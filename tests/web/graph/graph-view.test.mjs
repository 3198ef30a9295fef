// Fitting a drawing to its column (web/graph/graph-view.js): how far it may shrink, and grow.

import assert from "node:assert/strict";
import { test } from "node:test";
import { JSDOM } from "jsdom";

import { MIN_TEXT_PX, fittedWidths, outputNode } from "../../../web/graph/graph-view.js";

test("a drawing may shrink until its text is MIN_TEXT_PX, and never grows past its drawn width", () => {
  const big = fittedWidths({ width: 1500, viewBoxWidth: 1000, fontSize: 12 }); // 24 px text
  assert.equal(big.largest, 2000);
  assert.equal(big.readable, (1000 * MIN_TEXT_PX) / 12); // text of exactly MIN_TEXT_PX
});

test("a drawing whose text is drawn under MIN_TEXT_PX grows until it is MIN_TEXT_PX", () => {
  // 600 pt wide (800 px), a 1000-unit viewBox, 12-unit text: 9.6 px as drawn
  const { largest, readable } = fittedWidths({ width: 600, viewBoxWidth: 1000, fontSize: 12 });
  assert.equal(readable, (1000 * MIN_TEXT_PX) / 12);
  assert.equal(largest, readable);
  assert.ok(readable > 800);
});

test("a drawing without text keeps its drawn width", () => {
  const { largest, readable } = fittedWidths({ width: 300, viewBoxWidth: 300, fontSize: 0 });
  assert.equal(readable, 400);
  assert.equal(largest, 400);
});

test("the output node is the one no arrow leaves", () => {
  const { document } = new JSDOM(`<svg>
    <g class="node"><title>v0</title></g><g class="node"><title>op1</title></g><g class="node"><title>v1</title></g>
    <g class="edge"><title>v0->op1</title></g><g class="edge"><title>op1->v1</title></g></svg>`).window;
  const svg = document.querySelector("svg");
  assert.equal(outputNode(svg).querySelector("title").textContent, "v1");
  assert.equal(outputNode(document.createElement("svg")), null);
});
