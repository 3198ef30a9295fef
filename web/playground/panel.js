// One playground panel: the settings, Play / Pause / Step / Reset, the boundary and the loss chart.
//
// The worker trains and streams frames; this side only keeps the latest one and draws it at the
// next animation frame. The full panel (the Playground page) keeps its settings in the page URL
// (url-history.js), and a URL only ever fills in the settings — training starts when the reader
// presses Play. A compact panel (embedded in a chapter) leaves the URL alone and links to the
// full one. Which buttons work in which state: panel-states.js; the panel's parts: panel-layout.js.
// The whole panel, settings included, is built as the page loads (the fields and presets come
// with the bundle: PLAYGROUND_DESCRIPTION, from scratchgrad.playground.panel.describe at build
// time), so it keeps its size when Python has started and the text below it does not move.

/* global PLAYGROUND_DESCRIPTION */

import { allPassed } from "../shared/exercise-work.js";
import { BoundaryView } from "./boundary-view.js";
import { CodeView } from "./code-view.js";
import { SettingsForm } from "./controls.js";
import { formatLoss, LossChart } from "../shared/loss-chart.js";
import { buildModelFiles, save } from "./model-files.js";
import { NetworkView } from "./network-view.js";
import { buildPanelLayout } from "./panel-layout.js";
import { PointDrawing } from "./point-drawing.js";
import { allows, PANEL_STATE, stateText } from "./panel-states.js";
import { describePace, describeRate, RateMeter } from "./rate-meter.js";
import { keptPointsMissing, playgroundURL, recordInURL, settingsInURL } from "./url-history.js";

const COMPACT_CONTROLS = ["lr", "hidden", "activation"];
const DEFAULT_PRESET = "moons";
const NETWORK_EVERY_MS = 100; // the neurons are redrawn at most ten times a second while training

let nextPanelId = 1;

export class PlaygroundPanel {
  element;
  id = nextPanelId++;
  full;
  #worker;
  #parts;
  #form = null;
  #code = null;
  #files = null; // Export / Import (the full panel)
  #network = null; // the neurons' maps and the weights (the full panel)
  #yourWork = null; // the reader's passing exercise code (JSON) while engine=yours, else null
  #boundary;
  #chart;
  #rate = new RateMeter();
  #state = PANEL_STATE.loading;
  #frame = null;
  #grid = null;
  #view = null;
  #drawRequested = false;
  #networkDrawnAt = -Infinity; // when the neurons were last drawn (performance.now)
  #networkTimer = 0; // the skipped frame's drawing, due when NETWORK_EVERY_MS is up
  #cleanups = [];
  #started = null;
  #batchLine = null; // engine=yours: what its batch is, and a button for every point
  #drawing = null; // the full panel's "Draw data" tools
  #configuring = 0; // counts configure requests: an answer to one no longer the newest is dropped

  /**
   * @param {HTMLElement} element a div.sg-playground, written by hand in a chapter: data-preset
   *   names a preset of scratchgrad.playground (default "moons"), data-settings a query string
   *   read on top of it, data-compact makes the small panel of a chapter, and data-controls lists
   *   (comma-separated) the fields a compact panel shows
   * @param {{worker: object, runtime: object | null}} services the playground's worker
   *   (playgrounds.js) and the code blocks' PythonRuntime
   */
  constructor(element, { worker, runtime }) {
    this.element = element;
    this.full = !element.hasAttribute("data-compact");
    this.#worker = worker;
    element.classList.add("sg-playground--enhanced", this.full ? "sg-playground--full" : "sg-playground--compact");
    element.sgPlayground = this; // a handle for tests and the curious
    this.#parts = buildPanelLayout(element, {
      full: this.full,
      onPlay: () => (this.#state === PANEL_STATE.playing ? this.pause() : this.play()),
      onStep: () => this.step(),
      onReset: () => this.reset(),
    });
    if (this.#parts.link) this.#parts.link.href = playgroundURL();
    this.#boundary = new BoundaryView(this.#parts.boundary);
    this.#chart = new LossChart(this.#parts.chart);
    const listed = element.dataset.controls?.split(",").map((name) => name.trim());
    const shown = this.full ? null : (listed ?? COMPACT_CONTROLS);
    this.#form = new SettingsForm(PLAYGROUND_DESCRIPTION.fields, shown, () => this.#applyForm());
    this.#code = new CodeView(
      (steps) => this.#loadCode(steps),
      runtime,
      () => this.#codePrelude(),
    );
    this.#parts.body.prepend(this.#form.element);
    this.#parts.note.after(this.#code.element);
    this.#batchLine = batchLine(() => {
      this.#form.fill("batch_size=all");
      this.#applyForm();
    });
    this.#parts.pace.before(this.#batchLine.element);
    if (this.full) {
      this.#drawing = new PointDrawing(this.#parts.boundary, PLAYGROUND_DESCRIPTION.drawn_plane, (drawn) => {
        this.#form.fill(new URLSearchParams({ dataset: "drawn", drawn }).toString());
        this.#applyForm();
      });
      this.#parts.boundary.after(this.#drawing.element);
      this.#files = buildModelFiles({
        onExport: (kind) => this.exportModel(kind),
        onImport: (text, name) => this.importModel(text, name),
        limit: PLAYGROUND_DESCRIPTION.model_file_limit,
      });
      this.#code.element.before(this.#files.element);
      const features = PLAYGROUND_DESCRIPTION.fields.find((field) => field.name === "features");
      this.#network = new NetworkView(
        Object.fromEntries(features.choices.map((name, i) => [name, features.written[i]])),
        (shown) => this.#showNeurons(shown),
      );
      this.#network.element.hidden = true;
      this.#parts.boundary.closest(".sg-pg-views").append(this.#network.element);
    }
    this.#form.fill(PLAYGROUND_DESCRIPTION.presets[this.#presetName()] ?? "");
    this.#form.fill(this.#initialQuery()); // what start() will configure: the settings shown while Python loads
    this.#setState(PANEL_STATE.loading, "Loading Python (Pyodide) for the playground…");
    this.#cleanups.push(worker.listen(this.id, (message) => this.#onStream(message)));
    const redraw = () => this.#requestDraw();
    const resize = new ResizeObserver(redraw);
    resize.observe(this.#parts.boundary);
    resize.observe(this.#parts.chart);
    const theme = new MutationObserver(redraw);
    theme.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.#cleanups.push(
      () => resize.disconnect(),
      () => theme.disconnect(),
    );
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

  /** Start Python (if needed) and load the initial settings; once, however often it is called. */
  start() {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start() {
    try {
      await this.#worker.start();
    } catch (error) {
      this.#setState(PANEL_STATE.failed, error.message);
      return;
    }
    if (this.#state === PANEL_STATE.disposed) return;
    const preset = this.#presetName();
    if (this.full) {
      const onPopState = () => this.#configure(settingsInURL(), preset, "none");
      addEventListener("popstate", onPopState);
      this.#cleanups.push(() => removeEventListener("popstate", onPopState));
    }
    await this.#configure(this.#initialQuery(), preset, "replace");
  }

  #presetName() {
    return this.element.dataset.preset || DEFAULT_PRESET;
  }

  /** The settings read on top of the preset first: the page URL's (full panel), else data-settings. */
  #initialQuery() {
    return (this.full && settingsInURL()) || this.element.dataset.settings || "";
  }

  async play() {
    if (!allows(this.#state, "play")) return;
    this.#rate.restart(performance.now(), this.#frame.steps);
    this.#setState(PANEL_STATE.playing);
    try {
      await this.#request("play");
    } catch (error) {
      this.#setState(PANEL_STATE.paused, error.message);
    }
  }

  async pause() {
    if (!allows(this.#state, "pause")) return;
    await this.#request("pause");
    if (this.#state === PANEL_STATE.playing) this.#setState(PANEL_STATE.paused);
    this.#code?.update(this.#frame.steps);
  }

  async step() {
    if (!allows(this.#state, "step")) return;
    this.#show(await this.#request("step", { count: 1 }));
    this.#code.update(this.#frame.steps);
  }

  async reset() {
    if (!allows(this.#state, "reset")) return;
    if (this.#state === PANEL_STATE.playing) await this.pause();
    const answer = await this.#request("reset");
    this.#chart.clear();
    this.#show(answer);
    this.#setState(PANEL_STATE.paused);
    this.#code.update(0);
  }

  dispose() {
    this.#state = PANEL_STATE.disposed;
    clearTimeout(this.#networkTimer);
    for (const cleanup of this.#cleanups) cleanup();
    this.#request("dispose").catch(() => {});
  }

  /** Send `type` for this panel to the worker. */
  #request(type, payload = {}) {
    return this.#worker.request(type, { panel: this.id, ...payload });
  }

  /** Read `query` on top of `preset`; on success redraw from step 0 and (full panel) record the URL. */
  async #configure(query, preset, history) {
    if (this.#state === PANEL_STATE.playing) await this.pause();
    const yourWork = JSON.stringify(allPassed()); // engine=yours trains with it
    const ticket = ++this.#configuring;
    const reply = await this.#request("configure", { query, preset, yourWork, neurons: this.#neuronsShown() });
    if (ticket !== this.#configuring) return; // the reader changed more meanwhile (points drawn fast)
    this.#apply(reply, query, yourWork, history);
    if (this.full && history !== "push" && keptPointsMissing()) this.#showNote(POINTS_NOT_HERE, "error");
  }

  /**
   * Save the trained network: `kind` "json" (a model file Import reads back) or "python" (a program
   * that rebuilds it with scratchgrad).
   */
  async exportModel(kind) {
    if (!allows(this.#state, "export")) return;
    const files = await this.#request("exportModel");
    if (kind === "json") save(files.json, "scratchgrad-model.json", "application/json");
    else save(files.python, "scratchgrad_model.py", "text/x-python");
  }

  /** Load a model file's settings and weights (the text of the file called `name`). */
  async importModel(text, name = "the file") {
    if (!allows(this.#state, "edit")) return;
    if (this.#state === PANEL_STATE.playing) await this.pause();
    const yourWork = JSON.stringify(allPassed());
    const ticket = ++this.#configuring;
    const reply = await this.#request("importModel", { text, yourWork, neurons: this.#neuronsShown() });
    if (ticket !== this.#configuring) return; // settings changed meanwhile: they win
    const refused = reply.answer.problems.model;
    if (refused) {
      this.#showNote(`${name}: ${refused}`, "error"); // the panel keeps what it had
      return;
    }
    this.#apply(reply, reply.answer.query ?? "", yourWork, "push");
    if (reply.answer.frame) {
      const steps = reply.answer.imported;
      this.#showNote(
        `Imported ${name}: a network trained ${steps} step${steps === 1 ? "" : "s"}. Play trains on from ` +
          "its weights; Reset starts again from untrained ones.",
        "info",
      );
    }
  }

  /** Whether the worker should compute the neurons' maps: only when they are shown (the full panel). */
  #neuronsShown() {
    return this.#network?.shown ?? false;
  }

  /** "Show neurons" switched: the worker computes the maps from now on (or stops), starting with this frame's. */
  async #showNeurons(shown) {
    if (!this.#frame) return; // not configured yet: the next configure carries the choice
    const reply = await this.#request("showNeurons", { show: shown, frame: this.#frame });
    if (reply.grid && reply.frame.steps === this.#frame?.steps) this.#grid = reply.grid;
    this.#requestDraw();
  }

  /** Show what the worker answered to new settings: their problems, or the network from step 0. */
  #apply({ answer, frame, grid }, query, yourWork, history) {
    this.#yourWork = new URLSearchParams(answer.query ?? "").get("engine") === "yours" ? yourWork : null;
    this.#form.fill(query);
    this.#drawing?.load(this.#form.query());
    const elsewhere = this.#form.showProblems(answer.problems);
    if (Object.keys(answer.problems).length) {
      this.#setState(PANEL_STATE.invalid);
      this.#showNote(elsewhere.join(" "), "error");
      this.#code.clear("No program: the settings have problems.");
      this.#forgetShownData(); // what is drawn belongs to settings no longer shown
      this.#batchLine.show("", false);
      if (this.#drawing?.active) this.#boundary.setData(this.#drawing.view()); // the points so far
      if (this.#drawing?.active) this.#boundary.draw(null, null);
      return;
    }
    this.#form.fill(answer.query);
    this.#form.markUnused(answer.unused);
    this.#batchLine.show(answer.batch_note, new URLSearchParams(answer.query).get("batch_size") !== "all");
    this.#view = answer.view;
    this.#parts.boundaryCaption.textContent = answer.view.plane
      ? `The network's class over the plane (faded where unsure), the points on top${
          answer.view.test_points.length ? ": filled, trained on; hollow, held out" : ""
        }`
      : "Each point's score (bar) and its target (dashed line): 3-D points, no plane to draw";
    this.#boundary.setData(answer.view);
    this.#chart.clear();
    this.#show({ frame, grid });
    this.#setState(PANEL_STATE.paused);
    this.#code.update(0);
    if (this.#parts.link) this.#parts.link.href = `${playgroundURL()}?${answer.query}`;
    if (this.full && recordInURL(answer.query, history)) {
      const count = new URLSearchParams(answer.query).get("drawn").split(";").length;
      this.#showNote(pointsKeptHere(count), "info");
    }
    // The settings the panel now shows, applied (the form is filled before the worker answers).
    this.element.dataset.sgSettings = answer.query;
  }

  #applyForm() {
    this.#configure(this.#form.query(), "", "push");
  }

  /** Python to run before the shown program in the page: with engine=yours, the reader's engine module. */
  #codePrelude() {
    if (this.#yourWork === null) return null;
    return `from scratchgrad.playground.your_engine import install_your_engine\ninstall_your_engine(${JSON.stringify(this.#yourWork)})\n`;
  }

  async #loadCode(steps) {
    await this.start(); // "Show the code" opened before Python was ready waits for it
    return (await this.#request("code", { steps })).code;
  }

  #onStream(message) {
    if (this.#state === PANEL_STATE.disposed) return;
    if (message.type === "stopped") {
      this.#setState(PANEL_STATE.paused, `Training stopped: ${message.message}`);
      return;
    }
    this.#show(message);
    const rate = this.#rate.add(performance.now(), message.frame.steps);
    if (rate !== null) this.#parts.stats.rate.textContent = describeRate(rate);
    if (!message.playing && this.#state === PANEL_STATE.playing) {
      this.#setState(message.frame.note ? PANEL_STATE.diverged : PANEL_STATE.paused);
      this.#code.update(message.frame.steps);
    }
  }

  /** Blank the plane, the chart and the statistics: they showed settings that are no longer the form's. */
  #forgetShownData() {
    this.#view = this.#frame = this.#grid = null;
    this.#boundary.setData(null);
    this.#boundary.draw(null, null);
    this.#network?.draw(null, null, null);
    this.#chart.clear();
    this.#chart.draw();
    const { stats } = this.#parts;
    stats.steps.textContent = "Not trained: fix the settings";
    stats.loss.textContent = stats.accuracy.textContent = stats.test.textContent = "";
    delete this.element.dataset.sgTest;
    delete this.element.dataset.sgLoss;
    delete this.element.dataset.sgAccuracy;
  }

  #show({ frame, grid }) {
    this.#frame = frame;
    this.#grid = grid;
    this.#chart.append(frame.records);
    const { steps, loss, accuracy, note } = frame;
    const { stats } = this.#parts;
    Object.assign(this.element.dataset, { sgSteps: steps, sgLoss: String(loss), sgAccuracy: String(accuracy) });
    stats.steps.textContent = steps ? `Step ${steps}` : "Untrained";
    stats.loss.textContent = `loss ${loss === null ? "not a number" : formatLoss(loss)}`;
    stats.accuracy.textContent = `accuracy ${accuracy === null ? "?" : Math.round(100 * accuracy)}%`;
    stats.test.textContent = frame.test ? `test: ${describeTest(frame.test)}` : "";
    stats.test.title = "The network as it is now, on the points held out from training (hollow)";
    if (frame.test) this.element.dataset.sgTest = JSON.stringify(frame.test);
    else delete this.element.dataset.sgTest;
    stats.steps.title = steps
      ? "Loss and accuracy of the last step's batch, measured before its update"
      : "The untrained network, on all the points";
    if (note) this.#showNote(note, "warning");
    else if (this.#state !== PANEL_STATE.invalid) this.#showNote("");
    const { pace } = this.#parts;
    pace.hidden = !frame.pace;
    pace.textContent = frame.pace ? describePace(frame.pace) : "";
    this.#requestDraw();
  }

  #requestDraw() {
    if (this.#drawRequested || !this.#frame) return;
    this.#drawRequested = true;
    requestAnimationFrame(() => {
      this.#drawRequested = false;
      if (this.#state === PANEL_STATE.disposed) return;
      this.#boundary.draw(this.#frame, this.#grid);
      this.#drawNetwork();
      this.#chart.draw();
      this.#parts.boundary.setAttribute("aria-label", describeBoundary(this.#view, this.#frame));
      this.element.dataset.sgDrawnSteps = this.#frame.steps;
    });
  }

  /**
   * The neurons' maps and lines, at most every NETWORK_EVERY_MS while training (the plane and the
   * chart keep every frame): they cost the page as much as the rest together, on cores the
   * training shares. A frame skipped is drawn when that time is up, so the last one always shows.
   */
  #drawNetwork() {
    if (!this.#network) return;
    clearTimeout(this.#networkTimer);
    const wait = this.#networkDrawnAt + NETWORK_EVERY_MS - performance.now();
    if (this.#state === PANEL_STATE.playing && wait > 0) {
      this.#networkTimer = setTimeout(() => this.#drawNetwork(), wait);
      return;
    }
    this.#networkDrawnAt = performance.now();
    this.#network.draw(this.#frame, this.#grid, this.#view?.features);
  }

  #setState(state, message = "") {
    if (this.#state === PANEL_STATE.disposed) return;
    this.#state = state;
    this.element.dataset.sgState = state;
    const { play, step, reset } = this.#parts.buttons;
    const playing = state === PANEL_STATE.playing;
    play.textContent = playing ? "Pause" : "Play";
    play.setAttribute("aria-pressed", String(playing));
    play.disabled = !allows(state, "play") && !allows(state, "pause");
    step.disabled = !allows(state, "step");
    reset.disabled = !allows(state, "reset");
    if (this.#form) this.#form.disabled = !allows(state, "edit");
    if (this.#files) {
      const [exportJson, exportPython, importFile] = this.#files.buttons;
      exportJson.disabled = exportPython.disabled = !allows(state, "export");
      importFile.disabled = !allows(state, "edit");
    }
    if (state !== PANEL_STATE.playing) this.#parts.stats.rate.textContent = ""; // a rate is only true while training
    this.#parts.status.textContent = message || stateText(state);
    this.#parts.status.dataset.state = state;
  }

  #showNote(text, kind = "info") {
    const { note } = this.#parts;
    note.hidden = !text;
    note.textContent = text;
    note.dataset.kind = kind;
  }
}

const POINTS_NOT_HERE =
  "This link's drawn points were too many for a link: they stayed in the browser that drew them, " +
  "and this one does not have them. Draw points here, or Import the model file they were exported with.";

function pointsKeptHere(count) {
  return (
    `Your ${count} drawn points are too many for a link: this browser keeps them for this page ` +
    "(a reload, Back and Forward find them), but a copied link does not carry them. " +
    "Export model saves them in a file that Import model reads."
  );
}

function describeTest([loss, accuracy]) {
  const percent = accuracy === null ? "?" : Math.round(100 * accuracy);
  return `loss ${loss === null ? "not a number" : formatLoss(loss)}, accuracy ${percent}%`;
}

/** The line that says which batch the reader's engine takes, with a button to train on every point. */
function batchLine(onEveryPoint) {
  const element = document.createElement("p");
  element.className = "sg-pg-batch";
  element.hidden = true;
  const text = document.createElement("span");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "sg-pg-batch-all";
  button.textContent = "Train on every point";
  button.addEventListener("click", onEveryPoint);
  element.append(text, " ", button);
  return {
    element,
    show(note, offerEveryPoint) {
      element.hidden = !note;
      text.textContent = note;
      button.hidden = !offerEveryPoint;
    },
  };
}

function describeBoundary(view, frame) {
  const when = frame.steps ? `after ${frame.steps} steps` : "before training";
  if (!view?.plane) return `Scores of the four points ${when}`;
  const held = view.test_points?.length ? ` and ${view.test_points.length} held out to test (hollow)` : "";
  return `Decision boundary ${when}, ${view.points.length} training points${held} in ${view.classes} classes`;
}
