// The page's side of the playground worker: started once per visit, shared by every panel.
//
// Requests are matched to answers by id (Pyodide's worker pattern); frames a playing panel
// streams carry the panel's id and go to the listener that panel registered.

import { requireWebAssembly, workerFailure } from "../runtime/worker-failures.js";

export class PlaygroundClient {
  #options;
  #worker = null;
  #started = null;
  #pending = new Map();
  #listeners = new Map();
  #nextId = 1;

  /** @param {{workerURL: string, indexURL: string, lockFileURL: string}} options absolute URLs */
  constructor(options) {
    this.#options = options;
  }

  /**
   * Start the worker (once): resolves with {described, startupMs, bootedFrom}, rejects with a
   * reason for the reader.
   */
  start() {
    this.#started ??= this.#launch();
    return this.#started;
  }

  /** Send one request; resolves with the worker's answer, rejects with its message. */
  request(type, payload = {}) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (answer) => {
        this.#pending.delete(id);
        if (answer.type === "done") resolve(answer);
        else reject(new Error(answer.message));
      });
      this.#worker.postMessage({ id, type, ...payload });
    });
  }

  /** Call `listener(message)` for every frame the worker streams for `panel`; returns the undo. */
  listen(panel, listener) {
    this.#listeners.set(panel, listener);
    return () => this.#listeners.delete(panel);
  }

  async #launch() {
    requireWebAssembly();
    const { workerURL, indexURL, lockFileURL } = this.#options;
    this.#worker = new Worker(workerURL, { type: "module" });
    this.#worker.onmessage = ({ data }) => {
      if (data.id !== undefined) this.#pending.get(data.id)?.(data);
      else this.#listeners.get(data.panel)?.(data);
    };
    this.#worker.onerror = (event) => {
      const message = workerFailure("the playground's worker", event, workerURL);
      for (const answer of this.#pending.values()) answer({ type: "failed", message });
    };
    try {
      return await this.request("start", { indexURL, lockFileURL });
    } catch (error) {
      throw new Error(`Python could not start: ${error.message}`);
    }
  }
}
