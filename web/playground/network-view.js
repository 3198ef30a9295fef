// Inside the network: every hidden neuron's output over the plane, and the weights between them.
//
// As TensorFlow Playground draws it: a column per layer, a small map per hidden neuron (blue where
// its output is positive, orange where negative, pale near 0; the worker reads the maps off the
// picture's own forward pass, web/worker/boundary.js), and a line per weight whose width is its
// size and whose colour is its sign. Each neuron can be focused (Tab) or hovered: the line below
// the diagram then writes its formula with the current numbers. Inputs are the features it is
// given; hidden outputs are o (the notation's neuron output, docs/notation.md). "Show neurons"
// switches the maps and lines off (kept for the reader in localStorage): the worker then skips the
// maps too, and the figure keeps only the switch.

import { rgba, themeColors } from "../shared/canvas.js";
import { readText, remove, writeText } from "../shared/storage.js";

const SVG = "http://www.w3.org/2000/svg";
const HIDDEN_KEY = "scratchgrad-playground-neurons"; // "hidden" once the reader switched the maps off

export class NetworkView {
  element;
  #columns;
  #lines;
  #formula;
  #stage;
  #switch;
  #shape = "";
  #laidOut = ""; // the shape and size the lines were placed for
  #lineElements = []; // one per weight between the columns, in the weights' order
  #tiles = []; // per hidden layer, per neuron: {tile, canvas}
  #inputs = [];
  #frame = null;
  #focused = null; // [layer, neuron] whose formula is shown
  #written; // feature name → how it is written (scratchgrad.features, through the settings' description)

  /**
   * @param {Record<string, string>} written how each feature is written, by name (x1_sq → x₁²)
   * @param {(shown: boolean) => void} onSwitch called when the reader switches the neurons on or off
   */
  constructor(written, onSwitch) {
    this.#written = written;
    this.element = document.createElement("figure");
    this.element.className = "sg-pg-figure sg-pg-network";
    const label = document.createElement("label");
    label.className = "sg-pg-network-switch";
    this.#switch = document.createElement("input");
    this.#switch.type = "checkbox";
    this.#switch.checked = readText(HIDDEN_KEY) !== "hidden"; // shown unless the reader switched them off
    this.#switch.addEventListener("change", () => {
      if (this.shown) remove(HIDDEN_KEY);
      else writeText(HIDDEN_KEY, "hidden"); // no storage: the choice lasts as long as the page
      this.#stage.hidden = this.#formula.hidden = !this.shown;
      onSwitch(this.shown);
    });
    label.append(this.#switch, " Show neurons");
    label.title = "Each hidden neuron's output over the plane, and the weights as lines (off: training draws less)";
    const stage = document.createElement("div");
    this.#stage = stage;
    stage.className = "sg-pg-network-stage";
    this.#lines = document.createElementNS(SVG, "svg");
    this.#lines.setAttribute("class", "sg-pg-network-lines");
    this.#lines.setAttribute("aria-hidden", "true");
    this.#columns = document.createElement("div");
    this.#columns.className = "sg-pg-network-columns";
    stage.append(this.#lines, this.#columns);
    this.#formula = document.createElement("figcaption");
    this.#formula.className = "sg-pg-network-formula";
    this.#formula.setAttribute("aria-live", "polite");
    this.#formula.textContent = "Each hidden neuron over the plane; focus or point at one for its formula";
    stage.hidden = this.#formula.hidden = !this.shown;
    this.element.append(label, stage, this.#formula);
  }

  /** Whether the neurons are shown ("Show neurons" is ticked). */
  get shown() {
    return this.#switch.checked;
  }

  /** Draw the network of `frame.layers` given the features `names`, with the maps of `grid.neurons`. */
  draw(frame, grid, names) {
    this.#frame = frame;
    const layers = frame?.layers ?? [];
    this.element.hidden = !grid || layers.length < 2 || !names; // no plane, or no hidden neuron
    if (this.element.hidden || !this.shown || !grid.neurons) return;
    const shape = JSON.stringify([names, layers.map((layer) => layer.biases.length)]);
    if (shape !== this.#shape) this.#build(names, layers, shape);
    const colors = themeColors(this.element);
    grid.neurons.forEach((maps, layer) =>
      maps.forEach((map, neuron) => {
        const { tile, canvas } = this.#tiles[layer][neuron];
        paint(canvas, map, layers[layer].activation, colors);
        tile.setAttribute("aria-label", this.formula(layer, neuron)); // its text alternative, kept current
      }),
    );
    this.#drawLines(layers, colors);
    if (this.#focused) this.#showFormula(...this.#focused);
  }

  #build(names, layers, shape) {
    this.#shape = shape;
    this.#columns.replaceChildren();
    const widest = Math.max(...layers.slice(0, -1).map((layer) => layer.biases.length));
    this.element.classList.toggle("sg-pg-network--dense", widest > 8); // smaller maps: the column fits
    this.#inputs = names.map((name) => {
      const tile = document.createElement("span");
      tile.className = "sg-pg-network-input";
      tile.textContent = this.#written[name] ?? name;
      return tile;
    });
    this.#columns.append(column("Inputs", this.#inputs));
    this.#tiles = layers.slice(0, -1).map((layer, index) => {
      const tiles = layer.biases.map((_, neuron) => {
        const tile = document.createElement("span");
        tile.className = "sg-pg-network-neuron";
        tile.tabIndex = 0;
        tile.setAttribute("role", "img");
        tile.setAttribute("aria-label", `Layer ${index + 1}, neuron ${neuron + 1}`); // until the first draw
        const canvas = document.createElement("canvas");
        tile.append(canvas);
        const show = () => {
          this.#focused = [index, neuron];
          this.#showFormula(index, neuron);
        };
        tile.addEventListener("focus", show);
        tile.addEventListener("mouseenter", show);
        return { tile, canvas };
      });
      this.#columns.append(
        column(
          `Layer ${index + 1}`,
          tiles.map(({ tile }) => tile),
        ),
      );
      return tiles;
    });
  }

  /** The formula of hidden neuron `neuron` of layer `layer`, with the current numbers. */
  formula(layer, neuron) {
    const inputs = layer === 0 ? this.#inputs.map((tile) => tile.textContent) : null;
    return neuronFormula(this.#frame.layers[layer], layer, neuron, inputs);
  }

  #showFormula(layer, neuron) {
    if (!this.#tiles[layer]?.[neuron]) return;
    const text = this.formula(layer, neuron);
    this.#formula.textContent = text;
    this.#tiles[layer][neuron].tile.setAttribute("aria-label", text);
  }

  /**
   * A line per weight, its width the weight's size and its colour its sign. The lines are laid out
   * again only when the diagram's shape or size changed (`#laidOut`); a frame only restyles them.
   */
  #drawLines(layers, colors) {
    const box = this.#columns.getBoundingClientRect();
    const layout = `${this.#shape} ${box.width}x${box.height}`;
    if (layout !== this.#laidOut) this.#layLines(box, layout);
    const largest = Math.max(1e-9, ...layers.slice(0, -1).flatMap((layer) => layer.weights.flat().map(Math.abs)));
    let index = 0;
    for (const layer of layers.slice(0, this.#tiles.length)) {
      for (const row of layer.weights) {
        for (const w of row) {
          const line = this.#lineElements[index++];
          line.setAttribute("stroke", w >= 0 ? colors.classes[1] : colors.classes[0]);
          line.setAttribute("stroke-width", (0.5 + 3.5 * Math.min(1, Math.abs(w) / largest)).toFixed(2));
        }
      }
    }
  }

  /** Place a line from every input or neuron to every neuron of the next column, in `box`. */
  #layLines(box, layout) {
    this.#laidOut = layout;
    this.#lines.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    const centre = (element, side) => {
      const rect = element.getBoundingClientRect();
      return [side === "right" ? rect.right - box.left : rect.left - box.left, rect.top - box.top + rect.height / 2];
    };
    const columns = [this.#inputs, ...this.#tiles.map((tiles) => tiles.map(({ tile }) => tile))];
    this.#lineElements = [];
    for (let layer = 0; layer < columns.length - 1; layer += 1) {
      for (const to of columns[layer + 1]) {
        for (const from of columns[layer]) {
          const [x1, y1] = centre(from, "right");
          const [x2, y2] = centre(to, "left");
          const line = document.createElementNS(SVG, "line");
          for (const [name, value] of Object.entries({ x1, y1, x2, y2, "stroke-opacity": 0.7 })) {
            line.setAttribute(name, value);
          }
          this.#lineElements.push(line);
        }
      }
    }
    this.#lines.replaceChildren(...this.#lineElements);
  }
}

/**
 * How hidden neuron `neuron` of `layer` computes its output o, with its current numbers: inputs are
 * the features as written (first layer) or the previous layer's o₁, o₂, … A weight that has run off
 * to infinity or NaN (Python sends it as null) is written "?", as the plane's readout does.
 */
export function neuronFormula({ activation, weights, biases }, layer, neuron, inputs = null) {
  const names = inputs ?? weights[neuron].map((_, i) => `o${sub(i + 1)}`);
  const terms = weights[neuron].map((w, i) => `${w < 0 ? "−" : "+"} ${size(w)}·${names[i]}`);
  const bias = biases[neuron];
  const inside = `${bias < 0 ? "−" : ""}${size(bias)} ${terms.join(" ")}`;
  const name = `o${sub(neuron + 1)}`;
  return `Layer ${layer + 1}, ${name} = ${activation === "linear" ? inside : `${activation}(${inside})`}`;
}

function size(number) {
  return Number.isFinite(number) ? Math.abs(number).toFixed(2) : "?";
}

function column(title, tiles) {
  const element = document.createElement("div");
  element.className = "sg-pg-network-column";
  const heading = document.createElement("span");
  heading.className = "sg-pg-network-heading";
  heading.textContent = title;
  element.append(heading, ...tiles);
  return element;
}

/** One neuron's map: blue where its output is above 0, orange below, pale near 0. */
function paint(canvas, map, activation, colors) {
  const size = Math.round(Math.sqrt(map.length));
  if (canvas.width !== size) canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  const pixels = context.createImageData(size, size);
  const background = rgba(colors.background);
  const [negative, positive] = [rgba(colors.classes[0]), rgba(colors.classes[1])];
  let scale = 1;
  if (activation !== "tanh" && activation !== "sigmoid") for (const v of map) scale = Math.max(scale, Math.abs(v) || 0);
  for (let cell = 0; cell < map.length; cell += 1) {
    const v = activation === "sigmoid" ? 2 * map[cell] - 1 : map[cell] / scale;
    const share = Number.isFinite(v) ? Math.min(1, Math.abs(v)) : 0;
    const tint = v >= 0 ? positive : negative;
    for (let c = 0; c < 3; c += 1) pixels.data[4 * cell + c] = background[c] + (tint[c] - background[c]) * share;
    pixels.data[4 * cell + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
}

function sub(number) {
  return String(number).replace(/\d/g, (digit) => "₀₁₂₃₄₅₆₇₈₉"[digit]);
}
