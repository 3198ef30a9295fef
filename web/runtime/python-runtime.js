// The page's side of the Python worker: one object that starts it, runs code in it and stops it.
//
// Requests and answers go through the site's one WorkerClient (worker-client.js: Pyodide's
// worker pattern, matched by id). Runs are queued, so "run all blocks above" and a click on Run
// during a run simply wait their turn.
//
// Stop has two ways to end a run, chosen by what the browser allows:
// - cross-origin isolated (COOP/COEP headers, or the coi-serviceworker): write SIGINT into a
//   SharedArrayBuffer that Pyodide polls; Python raises KeyboardInterrupt and the namespace lives.
// - otherwise: terminate the worker and start a new one; the namespace is gone, and the result
//   says so, so the page can tell the reader.
// Either way the run ends within STOP_DEADLINE_MS: code that swallows KeyboardInterrupt (or sits
// in a call Pyodide cannot interrupt) gets the worker terminated too.

import { launchPythonWorker } from "./launch-worker.js";
import { DISPLAY, OUTPUT } from "./worker-messages.js";

const STOP_DEADLINE_MS = 800;
/**
 * Waits before trying again when the worker script fails to run at all. WebKit refuses a new
 * worker (an error event, no reason) for a few seconds after another one that ran Pyodide ended
 * (terminated by Stop, or the page before a reload), until it has let go of the old one.
 */
const RELAUNCH_DELAYS_MS = [1000, 2000, 4000, 8000];
const SIGINT = 2;

export const STATUS = Object.freeze({
  idle: "idle",
  loading: "loading",
  ready: "ready",
  running: "running",
  failed: "failed",
});

export class PythonRuntime extends EventTarget {
  #options;
  #client = null; // the WorkerClient of the current worker
  #started = null;
  #status = STATUS.idle;
  #failure = null;
  #interruptBuffer = null;
  #queue = Promise.resolve();
  #generation = 0; // bumped by stop() and restart(): queued runs of an older generation are dropped
  #activeRun = null;
  /** What the worker reported at start-up: {pythonVersion, interruptible, startupMs, bootedFrom}. */
  info = null;
  /** performance.now() when the worker was created and when Python became ready (benchmarks). */
  timings = { launchedAt: null, readyAt: null };

  /** @param {{workerURL: string, indexURL: string, lockFileURL: string}} options absolute URLs */
  constructor(options) {
    super();
    this.#options = options;
  }

  get status() {
    return this.#status;
  }

  /** Why start-up failed, in words for the reader (null unless status is "failed"). */
  get failure() {
    return this.#failure;
  }

  /** True when Stop keeps the namespace (KeyboardInterrupt) instead of restarting Python. */
  get interruptible() {
    return this.#interruptBuffer !== null;
  }

  /**
   * Why a Stop restarts Python instead of interrupting it, as a phrase for the reader: code that
   * ignored the interrupt; a reader's first page, which the site's service worker has not made
   * cross-origin isolated (../isolation/coi-serviceworker.js marks it); or the browser.
   */
  get whyStopRestarts() {
    if (this.interruptible) return "it did not stop when interrupted";
    if (document.documentElement.dataset.sgIsolation === "coming") {
      return "it cannot be interrupted on the first page of a visit";
    }
    return "this browser cannot interrupt it";
  }

  /** Load Pyodide and the package in the worker, once; resolves when ready, rejects on failure. */
  start() {
    this.#started ??= this.#launch();
    return this.#started;
  }

  /**
   * Run `code` in the named namespace once the runs queued before it are done.
   * Resolves with {outcome, asExpected, traceback?, message?}; outcome is one of
   * "ok", "error" (traceback),
   * "stopped" (KeyboardInterrupt, traceback), "reset" (Python was
   * restarted to stop it), "crashed" (the code broke the interpreter, which was restarted;
   * message), "cancelled" (stopped before it started), "unavailable" (message).
   * `asExpected` is Python's verdict (scratchgrad.page.blocks.Outcome.as_expected): true when the
   * code ran as it should, judged against `block.expect`; false for every other outcome.
   * `block`: {page, index, expect} of a runnable block, which Python names and judges; other code
   * gives its `filename` in tracebacks instead.
   * `graphs`: expressions whose Values are drawn after the run (a block's graph= option);
   * `curves`: expressions whose training runs are drawn as loss curves (its curve= option).
   * `bug`: a break-it switch's bug (scratchgrad.page.break_it), switched on for this run only.
   * `yours`: the reader's passing exercise code as JSON, to run on their engine ("my engine").
   * onStart() is called when the code starts (after the runs queued before it);
   * onOutput(stream, text) receives printed text; onDisplay(mimeType, data, label) drawings.
   */
  run(
    code,
    {
      namespace,
      block = null,
      filename = null,
      graphs = [],
      curves = [],
      bug = null,
      yours = null,
      onStart = () => {},
      onOutput = () => {},
      onDisplay = () => {},
    },
  ) {
    return this.#enqueue({
      type: "run",
      payload: { code, namespace, block, filename, graphs, curves, bug, yours },
      onStart,
      onOutput,
      onDisplay,
    });
  }

  /**
   * Run the hidden checks of exercise `exercise` on the reader's `source` (scratchgrad.exercises),
   * queued and stopped like run(). `earlier` maps exercise ids to the reader's passing code.
   * Resolves with {outcome: "ok", report} (the package's report as JSON) or run()'s other outcomes.
   */
  check(exercise, source, earlier, { onStart = () => {} } = {}) {
    return this.#enqueue({ type: "check", payload: { exercise, source, earlier }, onStart });
  }

  #enqueue({ onOutput = () => {}, onDisplay = () => {}, ...request }) {
    const generation = this.#generation;
    const result = this.#queue.then(() => {
      if (generation !== this.#generation) return { outcome: "cancelled" };
      return this.#runNow({ ...request, onOutput, onDisplay });
    });
    this.#queue = result.catch(() => {});
    return result;
  }

  /** End the current run (within STOP_DEADLINE_MS) and drop the queued ones. */
  stop() {
    this.#generation += 1;
    const active = this.#activeRun;
    if (!active) return;
    if (this.#interruptBuffer) {
      Atomics.store(this.#interruptBuffer, 0, SIGINT);
      active.deadline = setTimeout(() => this.#replaceWorker({ outcome: "reset" }), STOP_DEADLINE_MS);
    } else {
      this.#replaceWorker({ outcome: "reset" });
    }
  }

  /** A fresh Python for every page: namespaces cleared, the package imported anew. */
  async restart() {
    this.stop();
    if (this.#status === STATUS.failed) this.#replaceWorker();
    await this.start();
    await this.#client.request("restart");
    this.#emit("restarted");
  }

  async #launch() {
    this.#setStatus(STATUS.loading);
    for (let attempt = 0; ; attempt += 1) {
      const launch = launchPythonWorker(this.#options);
      this.timings = { launchedAt: launch.launchedAt, readyAt: null };
      this.#client = launch.client;
      this.#interruptBuffer = launch.interruptBuffer;
      try {
        this.info = await launch.started;
        this.timings.readyAt = performance.now();
        this.#setStatus(STATUS.ready);
        return;
      } catch (error) {
        if (this.#client !== launch.client) throw error; // a worker replaced while it started
        launch.client?.terminate();
        if (error.workerDidNotRun && attempt < RELAUNCH_DELAYS_MS.length) {
          await new Promise((resolve) => setTimeout(resolve, RELAUNCH_DELAYS_MS[attempt]));
          continue;
        }
        this.#failure = `Python could not start: ${error.message}. Reload the page to try again.`;
        this.#setStatus(STATUS.failed);
        throw new Error(this.#failure, { cause: error });
      }
    }
  }

  async #runNow({ type, payload, onStart, onOutput, onDisplay }) {
    try {
      await this.start();
    } catch (error) {
      return { outcome: "unavailable", message: error.message };
    }
    onStart();
    const active = { deadline: null, settle: null };
    this.#activeRun = active;
    this.#setStatus(STATUS.running);
    try {
      const answer = await new Promise((resolve) => {
        active.settle = resolve;
        this.#client
          .request(type, payload, (message) => {
            if (message.type === OUTPUT) onOutput(message.stream, message.text);
            else if (message.type === DISPLAY) onDisplay(message.mimeType, message.data, message.label);
          })
          .then(resolve, (error) => resolve({ failed: error }));
      });
      if (answer.outcome) return answer; // settled by #replaceWorker
      if (answer.failed?.fatal) {
        this.#replaceWorker();
        return { outcome: "crashed", message: answer.failed.message };
      }
      if (answer.failed) return { outcome: "unavailable", message: answer.failed.message };
      if (answer.report) return { outcome: "ok", report: answer.report };
      const asExpected = answer.as_expected;
      if (answer.raised === null) return { outcome: "ok", asExpected };
      const { names, traceback } = answer.raised;
      return { outcome: names[0] === "KeyboardInterrupt" ? "stopped" : "error", traceback, asExpected };
    } finally {
      clearTimeout(active.deadline);
      this.#activeRun = null;
      if (this.#status === STATUS.running) this.#setStatus(STATUS.ready);
    }
  }

  /**
   * Terminate the worker (ending whatever it runs) and start a fresh one in the background.
   * `settlement`, if given, is the result of the run that was in progress.
   */
  #replaceWorker(settlement = null) {
    this.#generation += 1;
    this.#client?.terminate(); // its waiting requests fail; the run in progress is settled below
    this.#client = null;
    const active = this.#activeRun;
    this.#started = null;
    this.#failure = null;
    this.#setStatus(STATUS.idle);
    if (settlement) active?.settle(settlement);
    this.#emit("restarted");
    this.start().catch(() => {}); // the status shows the failure; runs report it
  }

  #setStatus(status) {
    this.#status = status;
    this.#emit("status");
  }

  #emit(type) {
    this.dispatchEvent(new Event(type));
  }
}
