// The training speed a playing panel shows: steps per second over the last RATE_WINDOW_MS.
//
// A window rather than the whole play, so the figure shows the current speed, not an average
// that still remembers the first frames.

export const RATE_WINDOW_MS = 1500;

export class RateMeter {
  #samples = []; // [time in ms, steps] of the frames in the window, oldest first

  /** Measure from here: `steps` taken at time `now` (ms). */
  restart(now, steps) {
    this.#samples = [[now, steps]];
  }

  /** A frame with `steps` arrived at `now`; returns steps per second, or null until time has passed. */
  add(now, steps) {
    this.#samples.push([now, steps]);
    while (this.#samples.length > 2 && now - this.#samples[0][0] > RATE_WINDOW_MS) this.#samples.shift();
    const [[startTime, startSteps], [endTime, endSteps]] = [this.#samples[0], this.#samples.at(-1)];
    if (endTime <= startTime) return null;
    return (endSteps - startSteps) / ((endTime - startTime) / 1000);
  }
}

/** A rate for the panel's bar: whole steps from 10 a second, one decimal below. */
export function describeRate(rate) {
  return `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} steps/s`;
}

/**
 * The line under a panel that trains with the reader's engine: its milliseconds a step against the
 * book's engine on the same network, data, loss and rate, both measured live in the worker
 * (scratchgrad.playground.your_engine.EnginePace).
 * @param {{yours_ms: number, book_ms: number}} pace
 */
export function describePace({ yours_ms: yours, book_ms: book }) {
  const times = yours / book;
  const faster =
    times >= 1 ? `the book's is ${describeTimes(times)} as fast` : `yours is ${describeTimes(1 / times)} as fast`;
  return (
    `Your engine: ${describeMs(yours)} a step; the book's engine on the same network, data and loss: ` +
    `${describeMs(book)} (${faster}), measured here as it trains`
  );
}

function describeMs(ms) {
  return `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

function describeTimes(times) {
  return `${times >= 10 ? Math.round(times) : times.toFixed(1)}×`;
}
