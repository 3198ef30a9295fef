// The decision-boundary picture: what the network says at every cell of a grid over the plane.
//
// Python sends the network's current weights as plain numbers (Stepper.layers); this module
// runs the forward pass over the grid in JavaScript, in the playground's worker (playground-worker.js).
// A 64×64 grid is 4,096 forward passes: about 3 ms here, about 300 ms in Python under Pyodide, and
// the picture is redrawn ten times a second while training runs. The arithmetic and the class are
// scratchgrad.playground.stepper's predict_all and class_index, number for number (NaN and ±∞
// included), and a cell's inputs are scratchgrad.features.featured's: tests/playground/
// test_boundary_parity.py runs both on the same weights and points.

export const GRID_RESOLUTION = 64;

function sigmoid(z) {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

const ACTIVATIONS = {
  tanh: Math.tanh,
  // as Value.relu: NaN stays NaN (a diverged network must not look quiet), -0 keeps its sign
  relu: (z) => (z > 0 || Number.isNaN(z) ? z : z < 0 ? 0 : z),
  sigmoid,
  linear: (z) => z,
};

/** scratchgrad.features.FEATURES, formula for formula: what a network may be given of a point (x1, x2). */
export const FEATURES = {
  x1: (x1) => x1,
  x2: (x1, x2) => x2,
  x1_sq: (x1) => x1 * x1,
  x2_sq: (x1, x2) => x2 * x2,
  x1_x2: (x1, x2) => x1 * x2,
  sin_x1: (x1) => Math.sin(x1),
  sin_x2: (x1, x2) => Math.sin(x2),
};

/** The point (x1, x2) described by the features `names`, in order (scratchgrad.features.featured). */
export function featured(names, [x1, x2]) {
  return names.map((name) => {
    const feature = FEATURES[name];
    if (!feature) throw new Error(`the playground knows no feature ${JSON.stringify(name)}`);
    return feature(x1, x2);
  });
}

/** The network's outputs for one point `x`: an array with one number per output neuron. */
export function forward(layers, x) {
  return forwardThrough(layers, x, null);
}

/**
 * `forward`, handing every hidden layer's outputs to `seeHidden(layerIndex, outputs)` on the way
 * (the neuron maps read them): one forward pass for the picture and the maps alike.
 */
function forwardThrough(layers, x, seeHidden) {
  let inputs = x;
  for (const [index, { activation, weights, biases }] of layers.entries()) {
    const act = ACTIVATIONS[activation];
    if (!act) throw new Error(`the playground cannot draw the activation ${JSON.stringify(activation)}`);
    const outputs = new Array(weights.length);
    for (let j = 0; j < weights.length; j += 1) {
      const row = weights[j];
      let sum = 0;
      for (let i = 0; i < row.length; i += 1) sum += row[i] * inputs[i];
      outputs[j] = act(biases[j] + sum);
    }
    if (seeHidden && index < layers.length - 1) seeHidden(index, outputs);
    inputs = outputs;
  }
  return inputs;
}

/**
 * The class index of one output row (class_index's: 0 … K−1, for K classes), and how sure it is, from 0 (a coin
 * flip) to 1. One output is a score for two classes: index 1 (class +1) when it is > 0, else
 * index 0 (class -1), sure as |2σ(s) − 1|.
 * Several outputs are one score per class: the largest wins, sure as (pmax − 1/K)/(1 − 1/K)
 * with p = softmax(scores).
 */
export function classify(outputs) {
  if (outputs.length === 1) {
    const score = outputs[0];
    return [score > 0 ? 1 : 0, Math.tanh(Math.abs(score) / 2)];
  }
  let best = 0;
  for (let j = 1; j < outputs.length; j += 1) if (outputs[j] > outputs[best]) best = j;
  let total = 0;
  for (const score of outputs) total += Math.exp(score - outputs[best]);
  const classes = outputs.length; // K
  return [best, (1 / total - 1 / classes) / (1 - 1 / classes)];
}

/** The centre of cell (row, column): row 0 is the top of the plane (largest y). */
export function cellCentre([xMin, xMax, yMin, yMax], resolution, row, column) {
  return [xMin + ((column + 0.5) * (xMax - xMin)) / resolution, yMax - ((row + 0.5) * (yMax - yMin)) / resolution];
}

/**
 * The whole grid, row by row from the top: {resolution, classes: Uint8Array, strength: Float32Array,
 * neurons}. A cell whose output is not a number (a diverged network) gets class 255 and strength 0.
 * `neurons` is what every hidden neuron outputs over the plane, on a grid of half the resolution:
 * neurons[layer][neuron] is a Float32Array, row by row from the top, whose cell (r, c) is the
 * picture's cell (2r + 1, 2c + 1), read off the same forward pass; null when `withNeurons` is false
 * (the neurons are not shown).
 */
export function boundaryGrid(layers, plane, features = ["x1", "x2"], resolution = GRID_RESOLUTION, withNeurons = true) {
  const cells = resolution * resolution;
  const classes = new Uint8Array(cells);
  const strength = new Float32Array(cells);
  const half = resolution / 2;
  const neurons = withNeurons
    ? layers.slice(0, -1).map(({ biases }) => biases.map(() => new Float32Array(half * half)))
    : null;
  let mapCell = 0;
  const seeHidden = (layer, outputs) => {
    for (let j = 0; j < outputs.length; j += 1) neurons[layer][j][mapCell] = outputs[j];
  };
  for (let row = 0; row < resolution; row += 1) {
    for (let column = 0; column < resolution; column += 1) {
      const cell = row * resolution + column;
      const inputs = featured(features, cellCentre(plane, resolution, row, column));
      const mapped = neurons !== null && row % 2 === 1 && column % 2 === 1; // the centre of a 2 × 2 block
      mapCell = ((row - 1) / 2) * half + (column - 1) / 2;
      const [predicted, sure] = classify(forwardThrough(layers, inputs, mapped ? seeHidden : null));
      const known = Number.isFinite(sure);
      classes[cell] = known ? predicted : 255;
      strength[cell] = known ? sure : 0;
    }
  }
  return { resolution, classes, strength, neurons };
}
