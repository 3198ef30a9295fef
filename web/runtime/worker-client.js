// The page's side of every worker of the site: one client for the one protocol they all speak.
//
// Pyodide's worker pattern: the page sends {id, type, ...}; the worker (../worker/serve-requests.js)
// answers that id once, with {type: "done", ...} or {type: "failed", message, fatal}, and may
// stream messages of other types for the same id before it answers (a run's printed output).
// A message without an id answers no request: it is a notice the worker sends on its own
// (the frames of a playing panel).
//
// The Python worker of the code blocks (python-runtime.js), the playground's worker
// (../playground/playgrounds.js) and the graph drawing worker (../graph/graph-renderer.js) each
// hold one WorkerClient.

import { workerFailure } from "./worker-failures.js";
import { DONE, FAILED } from "./worker-messages.js";

export class WorkerClient {
  #worker;
  #name;
  #pending = new Map(); // request id → the handler of that request's messages
  #nextId = 1;
  #ended = null; // why no request can be answered any more (after terminate())

  /**
   * Create the module worker at `url`; throws where the browser cannot (e.g. on a file:// page).
   * @param {string} url the worker's script, an absolute URL
   * @param {object} options
   * @param {string} options.name the worker in words for the reader ("the Python worker")
   * @param {(message: object) => void} [options.onNotice] receives the messages without an id
   * @param {(message: string) => void} [options.onError] called when the worker's script fails,
   *   after every waiting request has failed with `message`
   */
  constructor(url, { name, onNotice = () => {}, onError = () => {} }) {
    this.#name = name;
    this.#worker = new Worker(url, { type: "module" });
    this.#worker.onmessage = ({ data }) => {
      if (data.id === undefined) onNotice(data);
      else this.#pending.get(data.id)?.(data);
    };
    this.#worker.onerror = (event) => {
      const message = workerFailure(name, event, url);
      this.#failAll(message, { workerDidNotRun: true }); // WebKit: for a while after another Pyodide worker ended
      onError(message);
    };
  }

  /**
   * Send the request {type, ...payload}. Resolves with the worker's "done" answer; rejects with
   * an Error carrying its message and `fatal` (true: the worker is unusable from now on).
   * onMessage(message) receives what the worker streams for this request before it answers.
   */
  request(type, payload = {}, onMessage = () => {}) {
    if (this.#ended) return Promise.reject(new Error(this.#ended));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (message) => {
        if (message.type !== DONE && message.type !== FAILED) {
          onMessage(message);
          return;
        }
        this.#pending.delete(id);
        if (message.type === DONE) resolve(message);
        else {
          const { fatal = false, workerDidNotRun = false } = message;
          reject(Object.assign(new Error(message.message), { fatal, workerDidNotRun }));
        }
      });
      this.#worker.postMessage({ id, type, ...payload });
    });
  }

  /** End the worker at once, whatever it is doing; every request still waiting fails. */
  terminate() {
    this.#worker.terminate();
    this.#ended = `${this.#name} was stopped`;
    this.#failAll(this.#ended);
  }

  #failAll(message, details = {}) {
    for (const answer of [...this.#pending.values()]) answer({ type: FAILED, message, ...details });
  }
}
