// An exercise's check report (web/exercises/check-report.js): one line per check, and a place for the
// reader's graph under a failed check that sends one.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { showReport } from "../../../web/exercises/check-report.js";
import { installDom } from "../dom.mjs";

beforeEach(() => installDom());

const REPORT = {
  verdict: "fail",
  headline: "1 of 3 checks failed",
  pieces: [],
  error: null,
  output: "",
  checks: [
    { title: "x ** 3", passed: true, message: "3.375, slope 6.75", graph: null },
    {
      title: "exp(x)",
      passed: false,
      message: "x: expected 1.649, got 0.5",
      graph: { dot: "digraph {}", study: "{}" },
    },
    { title: "no graph", passed: false, message: "there is no `Value`", graph: null },
  ],
};

describe("showReport", () => {
  test("gives each failed check that sends a graph a figure with its study, and returns them to draw", () => {
    const area = document.createElement("div");
    const graphs = showReport(area, REPORT, {});
    assert.equal(graphs.length, 1);
    const [{ figure, dot }] = graphs;
    assert.equal(dot, "digraph {}");
    assert.equal(figure.dataset.sgStudy, "{}");
    assert.equal(figure.getAttribute("aria-busy"), "true");
    const lines = area.querySelectorAll(".sg-check");
    assert.equal(figure.parentElement, lines[1]);
    assert.equal(lines[0].querySelector(".sg-check-graph"), null);
    assert.equal(lines[2].querySelector(".sg-check-graph"), null);
  });
});
