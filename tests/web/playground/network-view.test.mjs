// A hidden neuron's formula under the network diagram (web/playground/network-view.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { neuronFormula } from "../../../web/playground/network-view.js";

const layer = { activation: "tanh", weights: [[0.5, -1.25]], biases: [-0.1] };

test("a first-layer neuron is written over its features with its current numbers", () => {
  assert.equal(neuronFormula(layer, 0, 0, ["x₁", "x₂"]), "Layer 1, o₁ = tanh(−0.10 + 0.50·x₁ − 1.25·x₂)");
});

test("a deeper neuron reads the previous layer's outputs, and a linear one has no function", () => {
  const linear = { ...layer, activation: "linear" };
  assert.equal(neuronFormula(linear, 1, 0), "Layer 2, o₁ = −0.10 + 0.50·o₁ − 1.25·o₂");
});

test("a weight or bias that ran off to NaN or infinity (null from Python) is written ?", () => {
  const diverged = { activation: "relu", weights: [[null, 2]], biases: [null] };
  assert.equal(neuronFormula(diverged, 0, 0, ["x₁", "x₂"]), "Layer 1, o₁ = relu(? + ?·x₁ + 2.00·x₂)");
});
