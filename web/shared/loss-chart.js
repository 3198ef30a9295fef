// The loss chart: every step's loss (solid, left scale from 0) and accuracy (dashed, 0–100 %),
// and, when points are held out, the loss on them (dotted, same scale): where it rises while the
// training loss falls, the network is learning its training points rather than the pattern.
//
// It keeps all the steps; when there are more steps than pixel columns, each column draws the
// lowest and highest loss of its steps, so a spike never disappears between two columns.

import { fitCanvas, themeColors } from "./canvas.js";

const PAD = { left: 34, right: 30, top: 8, bottom: 16 };

export class LossChart {
  #canvas;
  #losses = [];
  #accuracies = [];
  #testLosses = [];

  constructor(canvas) {
    this.#canvas = canvas;
  }

  clear() {
    this.#losses = [];
    this.#accuracies = [];
    this.#testLosses = [];
  }

  /** Add steps' records, [[loss, accuracy(, test loss, test accuracy)], …]; a diverged loss arrives as null. */
  append(records) {
    for (const [loss, accuracy, ...tested] of records) {
      this.#losses.push(loss ?? Number.NaN);
      this.#accuracies.push(accuracy ?? Number.NaN);
      if (tested.length) this.#testLosses.push(tested[0] ?? Number.NaN);
    }
  }

  draw() {
    const { context, width, height } = fitCanvas(this.#canvas);
    const colors = themeColors(this.#canvas);
    context.clearRect(0, 0, width, height);
    const plot = { x: PAD.left, y: PAD.top, w: width - PAD.left - PAD.right, h: height - PAD.top - PAD.bottom };
    const finite = [...this.#losses, ...this.#testLosses].filter(Number.isFinite);
    const top = finite.length ? Math.max(...finite) * 1.05 || 1 : 1;
    const steps = Math.max(this.#losses.length, 10);

    context.font = "10px sans-serif";
    context.fillStyle = colors.light;
    context.strokeStyle = colors.lightest;
    context.lineWidth = 1;
    context.strokeRect(plot.x, plot.y, plot.w, plot.h);
    context.textAlign = "right";
    context.fillText(formatLoss(top), plot.x - 3, plot.y + 8);
    context.fillText("0", plot.x - 3, plot.y + plot.h);
    context.textAlign = "left";
    context.fillText("100%", plot.x + plot.w + 3, plot.y + 8);
    context.fillText("0%", plot.x + plot.w + 3, plot.y + plot.h);
    context.textAlign = "center";
    context.fillText(`step ${steps}`, plot.x + plot.w - 20, height - 3);
    context.fillText("1", plot.x, height - 3);

    this.#line(context, plot, this.#losses, steps, (v) => v / top, colors.loss, []);
    this.#line(context, plot, this.#accuracies, steps, (v) => v, colors.accuracy, [4, 3]);
    this.#line(context, plot, this.#testLosses, steps, (v) => v / top, colors.loss, [1.5, 3]);
    this.#canvas.setAttribute("aria-label", this.description());
  }

  /** What the chart shows, in words: its text alternative for a screen reader. */
  description() {
    const steps = this.#losses.length;
    if (!steps) return "Loss and accuracy per step: no step taken yet";
    const loss = (i) => (Number.isFinite(this.#losses[i]) ? formatLoss(this.#losses[i]) : "not a number");
    const accuracy = this.#accuracies.at(-1);
    const percent = Number.isFinite(accuracy) ? `${Math.round(100 * accuracy)}%` : "unknown";
    const test = this.#testLosses.at(-1);
    const tested = this.#testLosses.length
      ? `; on the held-out points, loss ${Number.isFinite(test) ? formatLoss(test) : "not a number"} at the last step`
      : "";
    return (
      `Loss and accuracy over ${steps} step${steps === 1 ? "" : "s"}: loss ${loss(0)} at step 1, ` +
      `${loss(steps - 1)} at step ${steps}; accuracy ${percent} at the last step${tested}`
    );
  }

  #line(context, plot, values, steps, scale, color, dash) {
    if (!values.length) return;
    const columns = Math.max(1, Math.floor(plot.w));
    const perColumn = Math.max(1, Math.ceil(values.length / columns));
    const x = (i) => plot.x + (steps > 1 ? (i / (steps - 1)) * plot.w : 0);
    const y = (v) => plot.y + plot.h - Math.max(0, Math.min(1, scale(v))) * plot.h;
    context.strokeStyle = color;
    context.lineWidth = 1.5;
    context.setLineDash(dash);
    context.beginPath();
    let drawing = false;
    for (let start = 0; start < values.length; start += perColumn) {
      const bucket = values.slice(start, start + perColumn).filter(Number.isFinite);
      if (!bucket.length) {
        drawing = false;
        continue;
      }
      const points = perColumn === 1 ? bucket : [Math.max(...bucket), Math.min(...bucket)];
      for (const v of points) {
        if (drawing) context.lineTo(x(start), y(v));
        else context.moveTo(x(start), y(v));
        drawing = true;
      }
    }
    context.stroke();
    context.setLineDash([]);
  }
}

/** A loss for a label: 3 significant digits, exponent form only for very small or large ones. */
export function formatLoss(loss) {
  if (!Number.isFinite(loss)) return String(loss);
  if (loss !== 0 && (Math.abs(loss) < 1e-3 || Math.abs(loss) >= 1e4)) return loss.toExponential(2);
  return loss.toPrecision(3);
}
