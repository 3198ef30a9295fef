// The boundary picture's forward pass and grid (web/worker/boundary.js).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  boundaryGrid,
  cellCentre,
  classify,
  FEATURES,
  featured,
  forward,
  GRID_RESOLUTION,
} from "../../../web/worker/boundary.js";

describe("featured", () => {
  test("a point (x1, x2) becomes the features asked for, in their order", () => {
    assert.deepEqual(featured(["x1_sq", "x1_x2", "x2"], [2, 3]), [4, 6, 3]);
    assert.deepEqual(Object.keys(FEATURES), ["x1", "x2", "x1_sq", "x2_sq", "x1_x2", "sin_x1", "sin_x2"]);
  });

  test("an unknown feature is named, not drawn as NaN", () => {
    assert.throws(() => featured(["x3"], [1, 2]), /knows no feature "x3"/);
  });

  test("the grid feeds each cell's features to the network", () => {
    const radius = [{ activation: "linear", weights: [[1, 1]], biases: [-0.25] }]; // x1² + x2² > 1/4
    const grid = boundaryGrid(radius, [-1, 1, -1, 1], ["x1_sq", "x2_sq"], 4);
    assert.deepEqual([...grid.classes], [1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1]);
  });
});

describe("forward", () => {
  test("each neuron is act(b + Σ wᵢ·xᵢ), summed left to right, layer after layer", () => {
    const layers = [
      {
        activation: "tanh",
        weights: [
          [1, -1],
          [0.5, 2],
        ],
        biases: [0, 1],
      },
      { activation: "linear", weights: [[2, -3]], biases: [0.5] },
    ];
    const hidden = [Math.tanh(0 + (1 * 1 + -1 * 2)), Math.tanh(1 + (0.5 * 1 + 2 * 2))];
    assert.deepEqual(forward(layers, [1, 2]), [0.5 + (2 * hidden[0] + -3 * hidden[1])]);
  });

  test("relu gives 0 for a negative sum and keeps a NaN one, as Value.relu does", () => {
    const relu = (bias) => forward([{ activation: "relu", weights: [[1]], biases: [bias] }], [0])[0];
    assert.equal(relu(-3), 0);
    assert.ok(Number.isNaN(relu(Number.NaN)));
    assert.equal(relu(2.5), 2.5);
  });

  test("sigmoid stays finite far from zero", () => {
    const sigmoid = (bias) => forward([{ activation: "sigmoid", weights: [[1]], biases: [bias] }], [0])[0];
    assert.equal(sigmoid(0), 0.5);
    assert.equal(sigmoid(-1000), 0);
    assert.equal(sigmoid(1000), 1);
  });

  test("an activation it cannot draw is named in the error", () => {
    const layers = [{ activation: "gelu", weights: [[1]], biases: [0] }];
    assert.throws(() => forward(layers, [1]), { message: 'the playground cannot draw the activation "gelu"' });
  });
});

describe("classify", () => {
  test("one output is a score for two classes, sure as tanh(|s| / 2)", () => {
    assert.deepEqual(classify([0]), [0, 0]);
    assert.deepEqual(classify([2]), [1, Math.tanh(1)]);
    assert.deepEqual(classify([-2]), [0, Math.tanh(1)]);
  });

  test("several outputs: the largest wins, sure as (pmax − 1/k) / (1 − 1/k)", () => {
    assert.deepEqual(classify([1, 1]), [0, 0]);
    const pmax = 1 / (Math.exp(-10) + 1 + Math.exp(-10));
    assert.deepEqual(classify([0, 10, 0]), [1, (pmax - 1 / 3) / (1 - 1 / 3)]);
  });
});

test("cellCentre counts rows from the top of the plane", () => {
  assert.deepEqual(cellCentre([-1, 1, -1, 1], 2, 0, 0), [-0.5, 0.5]);
  assert.deepEqual(cellCentre([-1, 1, -1, 1], 2, 1, 1), [0.5, -0.5]);
});

describe("boundaryGrid", () => {
  const scoreIsX = [{ activation: "linear", weights: [[1, 0]], biases: [0] }];

  test("gives every cell, row by row, its class and sureness", () => {
    const grid = boundaryGrid(scoreIsX, [-1, 1, -1, 1], ["x1", "x2"], 4);
    assert.equal(grid.resolution, 4);
    assert.deepEqual([...grid.classes], [0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]);
    const sureness = [0.75, 0.25, 0.25, 0.75].map((x) => Math.fround(Math.tanh(x / 2)));
    assert.deepEqual([...grid.strength.slice(0, 4)], sureness);
  });

  test("marks the cells of a diverged network unknown (class 255, sureness 0)", () => {
    const diverged = [{ activation: "linear", weights: [[Number.NaN, 0]], biases: [0] }];
    const grid = boundaryGrid(diverged, [-1, 1, -1, 1], ["x1", "x2"], 2);
    assert.deepEqual([...grid.classes], [255, 255, 255, 255]);
    assert.deepEqual([...grid.strength], [0, 0, 0, 0]);
  });

  test("is GRID_RESOLUTION cells square unless told otherwise", () => {
    const grid = boundaryGrid(scoreIsX, [-1, 1, -1, 1]);
    assert.equal(grid.classes.length, GRID_RESOLUTION * GRID_RESOLUTION);
    assert.ok(grid.classes instanceof Uint8Array && grid.strength instanceof Float32Array);
  });
});
