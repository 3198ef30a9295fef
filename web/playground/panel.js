// One playground panel: the settings, Play / Pause / Step / Reset, the boundary and the loss chart.
//
// The worker trains and streams frames; this side only keeps the latest one and draws it at the
// next animation frame. The full panel (the Playground page) keeps its settings in the page URL:
// every change the reader makes is a history entry, Back and Forward bring settings back, and a
// URL only ever fills in the settings — training starts when the reader presses Play.
// A compact panel (embedded in a chapter) leaves the URL alone and links to the full one.

import { BoundaryView } from "./boundary-view.js";
import { CodeView } from "./code-view.js";
import { SettingsForm } from "./controls.js";
import { LossChart, formatLoss } from "./loss-chart.js";

const COMPACT_CONTROLS = ["lr", "hidden", "activation"];
const RATE_WINDOW_MS = 1500;
const DEFAULT_PRESET = "moons";

let nextPanelId = 1;

export class PlaygroundPanel {
  element;
  id = nextPanelId++;
  full;
  #client;
  #runtime;
  #form = null;
  #code = null;
  #boundary;
  #boundaryCanvas;
  #boundaryCaption;
  #chart;
  #buttons = {};
  #stats = {};
  #status;
  #note;
  #link = null;
  #state = "loading";
  #frame = null;
  #grid = null;
  #view = null;
  #query = "";
  #drawRequested = false;
  #samples = [];
  #cleanups = [];

  /**
   * @param {HTMLElement} element a div.sg-playground (data-preset, data-settings, data-compact,
   *   data-controls: see notes/playground-embed.md)
   * @param {{client: PlaygroundClient, runtime: object | null}} services
   */
  constructor(element, { client, runtime }) {
    this.element = element;
    this.full = !element.hasAttribute("data-compact");
    this.#client = client;
    this.#runtime = runtime;
    element.replaceChildren();
    element.classList.add("sg-playground--enhanced", this.full ? "sg-playground--full" : "sg-playground--compact");
    element.sgPlayground = this; // a handle for tests and the curious
    const canvases = this.#layout();
    this.#boundary = new BoundaryView(canvases.boundary);
    this.#chart = new LossChart(canvases.chart);
    this.#setState("loading", "Loading Python (Pyodide) for the playground…");
    this.#cleanups.push(client.listen(this.id, (message) => this.#onStream(message)));
    const redraw = () => this.#requestDraw();
    const resize = new ResizeObserver(redraw);
    resize.observe(canvases.boundary);
    resize.observe(canvases.chart);
    const theme = new MutationObserver(redraw);
    theme.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.#cleanups.push(() => resize.disconnect(), () => theme.disconnect());
  }

  /** Steps taken, and the latest frame from Python (for tests). */
  get frame() {
    return this.#frame;
  }

  get grid() {
    return this.#grid;
  }

  get view() {
    return this.#view;
  }

  get state() {
    return this.#state;
  }

  /** Start Python (if needed), build the controls and load the initial settings. */
  async start() {
    let described;
    try {
      ({ described } = await this.#client.start());
    } catch (error) {
      this.#setState("failed", error.message);
      return;
    }
    if (this.#state === "disposed") return;
    const listed = this.element.dataset.controls?.split(",").map((name) => name.trim());
    const shown = this.full ? null : (listed ?? COMPACT_CONTROLS);
    this.#form = new SettingsForm(described.fields, shown, () => this.#applyForm());
    this.#code = new CodeView((steps) => this.#loadCode(steps), this.#runtime);
    this.element.querySelector(".sg-pg-body").prepend(this.#form.element);
    this.#note.after(this.#code.element);
    const preset = this.element.dataset.preset || DEFAULT_PRESET;
    this.#form.fill(described.presets[preset] ?? "");
    if (this.full) {
      const onPopState = () => this.#configure(settingsInURL(), preset, "none");
      addEventListener("popstate", onPopState);
      this.#cleanups.push(() => removeEventListener("popstate", onPopState));
    }
    const query = (this.full && settingsInURL()) || this.element.dataset.settings || "";
    await this.#configure(query, preset, "replace");
  }

  async play() {
    if (this.#state !== "paused") return;
    this.#samples = [[performance.now(), this.#frame.steps]];
    this.#setState("playing");
    try {
      await this.#client.request("play", { panel: this.id });
    } catch (error) {
      this.#setState("paused", error.message);
    }
  }

  async pause() {
    if (this.#state !== "playing") return;
    await this.#client.request("pause", { panel: this.id });
    if (this.#state === "playing") this.#setState("paused");
    this.#code?.update(this.#frame.steps);
  }

  async step() {
    if (this.#state !== "paused") return;
    this.#show(await this.#client.request("step", { panel: this.id, count: 1 }));
    this.#code.update(this.#frame.steps);
  }

  async reset() {
    if (!["paused", "playing", "diverged"].includes(this.#state)) return;
    if (this.#state === "playing") await this.pause();
    const answer = await this.#client.request("reset", { panel: this.id });
    this.#chart.clear();
    this.#show(answer);
    this.#setState("paused");
    this.#code.update(0);
  }

  dispose() {
    this.#state = "disposed";
    for (const cleanup of this.#cleanups) cleanup();
    this.#client.request("dispose", { panel: this.id }).catch(() => {});
  }

  /** Read `query` on top of `preset`; on success redraw from step 0 and (full panel) record the URL. */
  async #configure(query, preset, history) {
    if (this.#state === "playing") await this.pause();
    const { answer, frame, grid } = await this.#client.request("configure", { panel: this.id, query, preset });
    this.#form.fill(query);
    const elsewhere = this.#form.showProblems(answer.problems);
    if (Object.keys(answer.problems).length) {
      this.#setState("invalid", "Fix the settings marked above to train.");
      this.#showNote(elsewhere.join(" "), "error");
      this.#code.clear("No program: the settings have problems.");
      return;
    }
    this.#query = answer.query;
    this.#form.fill(answer.query);
    this.#form.markUnused(answer.unused);
    this.#view = answer.view;
    this.#boundaryCaption.textContent = answer.view.plane
      ? "The network's class over the plane (faded where unsure), the points on top"
      : "Each point's score (bar) and its target (dashed line): 3-D points, no plane to draw";
    this.#boundary.setData(answer.view);
    this.#chart.clear();
    this.#show({ frame, grid });
    this.#setState("paused");
    this.#code.update(0);
    if (this.#link) this.#link.href = `${playgroundURL()}?${answer.query}`;
    if (this.full) recordInURL(answer.query, history);
  }

  #applyForm() {
    this.#configure(this.#form.query(), "", "push");
  }

  async #loadCode(steps) {
    return (await this.#client.request("code", { panel: this.id, steps })).code;
  }

  #onStream(message) {
    if (this.#state === "disposed") return;
    if (message.type === "stopped") {
      this.#setState("paused", `Training stopped: ${message.message}`);
      return;
    }
    this.#show(message);
    const now = performance.now();
    this.#samples.push([now, message.frame.steps]);
    while (this.#samples.length > 2 && now - this.#samples[0][0] > RATE_WINDOW_MS) this.#samples.shift();
    this.#showRate();
    if (!message.playing && this.#state === "playing") {
      this.#setState(message.frame.note ? "diverged" : "paused");
      this.#code.update(message.frame.steps);
    }
  }

  #show({ frame, grid }) {
    this.#frame = frame;
    this.#grid = grid;
    this.#chart.append(frame.records);
    const { steps, loss, accuracy, note } = frame;
    Object.assign(this.element.dataset, { sgSteps: steps, sgLoss: String(loss), sgAccuracy: String(accuracy) });
    this.#stats.steps.textContent = steps ? `Step ${steps}` : "Untrained";
    this.#stats.loss.textContent = `loss ${loss === null ? "not a number" : formatLoss(loss)}`;
    this.#stats.accuracy.textContent = `accuracy ${accuracy === null ? "?" : Math.round(100 * accuracy)}%`;
    this.#stats.steps.title = steps
      ? "Loss and accuracy of the last step's batch, measured before its update"
      : "The untrained network, on all the points";
    if (note) this.#showNote(note, "warning");
    else if (this.#state !== "invalid") this.#showNote("");
    this.#requestDraw();
  }

  /** Steps per second over the last RATE_WINDOW_MS of frames. */
  #showRate() {
    const [[startTime, startSteps], [endTime, endSteps]] = [this.#samples[0], this.#samples.at(-1)];
    if (endTime <= startTime) return;
    const rate = (endSteps - startSteps) / ((endTime - startTime) / 1000);
    this.#stats.rate.textContent = `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} steps/s`;
  }

  #requestDraw() {
    if (this.#drawRequested || !this.#frame) return;
    this.#drawRequested = true;
    requestAnimationFrame(() => {
      this.#drawRequested = false;
      if (this.#state === "disposed") return;
      this.#boundary.draw(this.#frame, this.#grid);
      this.#chart.draw();
      const steps = this.#frame.steps;
      this.#boundaryCanvas.setAttribute("aria-label", describeBoundary(this.#view, this.#frame));
      this.element.dataset.sgDrawnSteps = steps;
    });
  }

  #setState(state, message = "") {
    if (this.#state === "disposed") return;
    this.#state = state;
    this.element.dataset.sgState = state;
    const ready = !["loading", "failed"].includes(state);
    const play = this.#buttons.play;
    play.textContent = state === "playing" ? "Pause" : "Play";
    play.setAttribute("aria-pressed", String(state === "playing"));
    play.disabled = !["paused", "playing"].includes(state);
    this.#buttons.step.disabled = state !== "paused";
    this.#buttons.reset.disabled = !["paused", "playing", "diverged"].includes(state);
    if (this.#form) this.#form.disabled = !ready;
    if (state !== "playing") this.#stats.rate.textContent = ""; // a rate is only true while training
    this.#status.textContent = message || STATE_TEXT[state] || "";
    this.#status.dataset.state = state;
  }

  #showNote(text, kind = "info") {
    this.#note.hidden = !text;
    this.#note.textContent = text;
    this.#note.dataset.kind = kind;
  }

  /** The panel's fixed parts: the bar with buttons and numbers, the two views, the note. */
  #layout() {
    const bar = element("div", "sg-pg-bar");
    const buttons = element("div", "sg-pg-buttons");
    const add = (name, text, title, action) => {
      const b = element("button", `sg-button sg-pg-${name}`, text);
      b.type = "button";
      b.title = title;
      b.addEventListener("click", action);
      this.#buttons[name] = b;
      buttons.append(b);
    };
    add("play", "Play", "Train continuously (press again to pause)", () =>
      this.#state === "playing" ? this.pause() : this.play(),
    );
    add("step", "Step", "Take exactly one training step", () => this.step());
    add("reset", "Reset", "Back to the untrained network (same settings and seed)", () => this.reset());
    const stats = element("div", "sg-pg-stats");
    stats.setAttribute("role", "group");
    stats.setAttribute("aria-label", "Training numbers");
    for (const name of ["steps", "loss", "accuracy", "rate"]) {
      this.#stats[name] = element("span", `sg-pg-stat sg-pg-stat--${name}`);
      stats.append(this.#stats[name]);
    }
    this.#status = element("span", "sg-pg-status");
    this.#status.setAttribute("role", "status");
    bar.append(buttons, stats, this.#status);

    const views = element("div", "sg-pg-views");
    const boundary = element("canvas", "sg-pg-boundary");
    boundary.setAttribute("role", "img");
    boundary.setAttribute("aria-label", "Decision boundary (loading)");
    this.#boundaryCanvas = boundary;
    const chart = element("canvas", "sg-pg-chart");
    chart.setAttribute("role", "img");
    chart.setAttribute("aria-label", "Loss (solid) and accuracy (dashed) at every step");
    const boundaryFigure = figure(boundary, "");
    this.#boundaryCaption = boundaryFigure.querySelector("figcaption");
    views.append(boundaryFigure, figure(chart, "Loss (solid) and accuracy (dashed, 0–100 %) per step"));
    const body = element("div", "sg-pg-body");
    body.append(views);
    this.#note = element("p", "sg-pg-note");
    this.#note.setAttribute("role", "alert");
    this.#note.hidden = true;
    this.element.append(bar, body, this.#note);
    if (!this.full) {
      this.#link = element("a", "sg-pg-open", "Open in the Playground (all settings, shareable link)");
      this.#link.href = playgroundURL();
      this.element.append(this.#link);
    }
    return { boundary, chart };
  }
}

const STATE_TEXT = {
  loading: "Loading Python…",
  invalid: "Fix the settings marked above to train.",
  paused: "",
  playing: "Training…",
  diverged: "Paused: training diverged.",
};

function element(tag, className, text = "") {
  const created = document.createElement(tag);
  created.className = className;
  if (text) created.textContent = text;
  return created;
}

function figure(canvas, caption) {
  const wrapper = element("figure", "sg-pg-figure");
  wrapper.append(canvas, element("figcaption", "", caption));
  return wrapper;
}

function describeBoundary(view, frame) {
  const when = frame.steps ? `after ${frame.steps} steps` : "before training";
  if (!view?.plane) return `Scores of the four points ${when}`;
  return `Decision boundary ${when}, ${view.points.length} points in ${view.classes} classes`;
}

/** The page URL's settings as a query string ("" when it carries none). */
function settingsInURL() {
  return location.search.replace(/^\?/, "");
}

/** Write the settings into the page URL: a new history entry ("push"), in place ("replace"), or not. */
function recordInURL(query, how) {
  if (how === "none" || settingsInURL() === query) return;
  if (how === "replace" && !settingsInURL()) return; // a plain visit keeps its plain URL
  const url = `${location.pathname}?${query}${location.hash}`;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(history.state, "", url);
}

/** The Playground page's URL, from the site root Material writes into the page (#__config). */
function playgroundURL() {
  let base = ".";
  try {
    base = JSON.parse(document.getElementById("__config")?.textContent ?? "{}").base ?? ".";
  } catch {
    // an unreadable config: the site root is this page's folder, as good a guess as any
  }
  return new URL(`${base}/playground/`, location.href).pathname;
}
