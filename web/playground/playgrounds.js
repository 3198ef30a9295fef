// The playground panels of one page (every div.sg-playground), served by one worker per visit.
//
// web/main.js calls PlaygroundPage.enhance on every page Material shows (instant navigation
// swaps the page body) and disposes the previous page's panels. The worker
// (../worker/playground-worker.js) starts when the first panel comes near the viewport: a chapter
// whose panel sits far down does not load a second Python while the reader is still at the top.

import { launchPythonWorker } from "../runtime/launch-worker.js";
import { PlaygroundPanel } from "./panel.js";

let worker = null; // one worker for the whole visit, created with the first panel

export class PlaygroundPage {
  /**
   * Enhance the panels under `root`; null when there are none.
   * @param {{workerURL: string, indexURL: string, lockFileURL: string}} worker absolute URLs
   * @param {object | null} runtime the code blocks' PythonRuntime ("Run it here" under the code)
   */
  static enhance(root, { worker: files, runtime }) {
    const elements = [...root.querySelectorAll("div.sg-playground")];
    if (!elements.length) return null;
    worker ??= new PlaygroundWorker(files);
    return new PlaygroundPage(elements.map((element) => new PlaygroundPanel(element, { worker, runtime })));
  }

  #panels;
  #observer;

  constructor(panels) {
    this.#panels = panels;
    this.#observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          this.#observer.unobserve(entry.target);
          entry.target.sgPlayground.start();
        }
      },
      { rootMargin: "400px 0px" },
    );
    for (const panel of panels) this.#observer.observe(panel.element);
  }

  get panels() {
    return this.#panels;
  }

  dispose() {
    this.#observer.disconnect();
    for (const panel of this.#panels) panel.dispose();
  }
}

/**
 * The playground's worker as the panels see it: started once, its requests those of its
 * WorkerClient, and the frames it streams for a panel handed to the listener that panel registered.
 */
class PlaygroundWorker {
  #files;
  #launch = null;
  #started = null;
  #listeners = new Map(); // panel id → listener

  constructor(files) {
    this.#files = files;
  }

  /** Start the worker (once): resolves with {startupMs, bootedFrom}, rejects with a reason. */
  start() {
    this.#launch ??= launchPythonWorker(this.#files, {
      name: "the playground's worker",
      interruptible: false, // a playing panel pauses between two slices of training
      onNotice: (message) => this.#listeners.get(message.panel)?.(message),
    });
    this.#started ??= this.#launch.started.catch((error) => {
      throw new Error(`Python could not start: ${error.message}`);
    });
    return this.#started;
  }

  /** Send one request for a panel (WorkerClient.request); fails if the worker never started. */
  request(type, payload) {
    const client = this.#launch?.client;
    return client ? client.request(type, payload) : Promise.reject(new Error("the playground's worker is not running"));
  }

  /** Call `listener(message)` for every frame the worker streams for `panel`; returns the undo. */
  listen(panel, listener) {
    this.#listeners.set(panel, listener);
    return () => this.#listeners.delete(panel);
  }
}
