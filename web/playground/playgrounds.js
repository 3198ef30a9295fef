// The playground panels of one page (every div.sg-playground), served by one worker per visit.
//
// web/page/main.js calls PlaygroundPage.enhance on every page Material shows (instant navigation
// swaps the page body) and disposes the previous page's panels. The worker starts when the first
// panel comes near the viewport: a chapter whose panel sits far down does not load a second
// Python while the reader is still at the top.

import "./playground.css";
import { PlaygroundClient } from "./client.js";
import { PlaygroundPanel } from "./panel.js";

let client = null; // one worker for the whole visit, created with the first panel

export class PlaygroundPage {
  /**
   * Enhance the panels under `root`; null when there are none.
   * @param {{workerURL: string, indexURL: string, lockFileURL: string}} worker absolute URLs
   * @param {object | null} runtime the code blocks' PythonRuntime ("Run it here" under the code)
   */
  static enhance(root, { worker, runtime }) {
    const elements = [...root.querySelectorAll("div.sg-playground")];
    if (!elements.length) return null;
    client ??= new PlaygroundClient(worker);
    return new PlaygroundPage(elements.map((element) => new PlaygroundPanel(element, { client, runtime })));
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
