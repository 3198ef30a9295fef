// The decision-boundary view: the grid's classes as a heatmap over the plane, the points on top.
//
// Each grid cell is one pixel of a small offscreen image, coloured by its class and faded by
// how sure the network is; the image is scaled up smoothly to the canvas. The four points of
// the first chapter live in 3-D, where no plane can show them: for them the view shows each
// point's score next to its target instead.

import { fitCanvas, rgba, themeColors } from "../shared/canvas.js";

export class BoundaryView {
  #canvas;
  #view = null;
  #image = null;

  constructor(canvas) {
    this.#canvas = canvas;
  }

  /** The data to draw from now on: {inputs, features, classes, points, labels, test_points,
   * test_labels, plane} (PanelSession.configure), or the points being drawn (no test points). */
  setData(view) {
    this.#view = view;
  }

  /** Draw the network's state: `frame` from Python, `grid` from boundaryGrid (null for 3-D points). */
  draw(frame, grid) {
    const { context, width, height } = fitCanvas(this.#canvas);
    const colors = themeColors(this.#canvas);
    context.clearRect(0, 0, width, height);
    if (!this.#view) return;
    if (this.#view.plane) {
      if (grid) this.#drawHeatmap(context, grid, colors, width, height);
      this.#drawPoints(context, colors, width, height); // without a grid: drawn points not trained yet
    } else if (frame?.scores) {
      this.#drawScores(context, frame.scores, colors, width, height);
    }
  }

  #drawHeatmap(context, { resolution, classes, strength }, colors, width, height) {
    if (this.#image?.width !== resolution) this.#image = new OffscreenCanvas(resolution, resolution);
    const pixels = new ImageData(resolution, resolution);
    const background = rgba(colors.background);
    const tints = colors.classes.map(rgba);
    const unknown = rgba(colors.light);
    for (let cell = 0; cell < classes.length; cell += 1) {
      const tint = classes[cell] === 255 ? unknown : tints[classes[cell]];
      const share = classes[cell] === 255 ? 0.3 : 0.06 + 0.44 * strength[cell];
      for (let c = 0; c < 3; c += 1) {
        pixels.data[4 * cell + c] = background[c] + (tint[c] - background[c]) * share;
      }
      pixels.data[4 * cell + 3] = 255;
    }
    const image = this.#image.getContext("2d");
    image.putImageData(pixels, 0, 0);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(this.#image, 0, 0, width, height);
  }

  /** The training points filled, the held-out points hollow: a ring of their class's colour. */
  #drawPoints(context, colors, width, height) {
    const [xMin, xMax, yMin, yMax] = this.#view.plane;
    const radius = Math.min(6, Math.max(3.5, width / 80));
    const at = ([x, y]) => [((x - xMin) / (xMax - xMin)) * width, ((yMax - y) / (yMax - yMin)) * height];
    context.lineWidth = 1.5;
    context.strokeStyle = colors.background;
    this.#view.points.forEach((point, i) => {
      context.beginPath();
      context.arc(...at(point), radius, 0, 2 * Math.PI);
      context.fillStyle = colors.classes[this.#view.labels[i]];
      context.fill();
      context.stroke();
    });
    (this.#view.test_points ?? []).forEach((point, i) => {
      context.beginPath();
      context.arc(...at(point), radius - 1, 0, 2 * Math.PI);
      context.fillStyle = colors.background;
      context.fill();
      context.lineWidth = 2.5;
      context.strokeStyle = colors.classes[this.#view.test_labels[i]];
      context.stroke();
    });
  }

  /** Four 3-D points: a bar per point from 0 to its score, and a line at its target (±1). */
  #drawScores(context, scores, colors, width, height) {
    const limit = 2;
    const y = (value) => height / 2 - (Math.max(-limit, Math.min(limit, value)) / limit) * (height / 2 - 14);
    const slot = width / scores.length;
    context.strokeStyle = colors.lightest;
    context.beginPath();
    context.moveTo(0, y(0));
    context.lineTo(width, y(0));
    context.stroke();
    context.font = "11px sans-serif";
    context.textAlign = "center";
    scores.forEach((score, i) => {
      const label = this.#view.labels[i];
      const target = label === 1 ? 1 : -1;
      const left = i * slot + slot * 0.3;
      context.fillStyle = colors.classes[label];
      context.fillRect(left, Math.min(y(0), y(score)), slot * 0.4, Math.abs(y(score) - y(0)) || 1);
      context.strokeStyle = colors.foreground;
      context.setLineDash([4, 3]);
      context.beginPath();
      context.moveTo(i * slot + slot * 0.15, y(target));
      context.lineTo(i * slot + slot * 0.85, y(target));
      context.stroke();
      context.setLineDash([]);
      context.fillStyle = colors.foreground;
      context.fillText(
        `x${i + 1}: ${Number.isFinite(score) ? score.toFixed(2) : "?"}`,
        i * slot + slot / 2,
        height - 2,
      );
    });
  }
}
