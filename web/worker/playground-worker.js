// The playground's module Web Worker: trains the panels' networks in Python, off the page's thread.
//
// It starts Pyodide and the scratchgrad wheel exactly as the code blocks' worker does
// (loadScratchgrad), then serves every playground panel of the page: one PanelSession of
// scratchgrad.playground.panel per panel, spoken to in JSON text.
//
// "configure" carries yourWork, the reader's passing exercise code, for engine=yours, and
// neurons, whether the page shows the neurons' maps (computed only then; "showNeurons" changes it).
// Requests {id, type, panel, ...} get one answer {id, type: "done", ...} or
// {id, type: "failed", message}. While a panel plays, the worker trains it in slices of about
// SLICE_MS and after each slice posts
//   {type: "frame", panel, frame, grid, playing}
// then returns to its event loop before the next slice, so a "pause" request is read between
// two slices: stopping needs no interrupt, and the namespace is never lost. A slice that ends
// in divergence (frame.note) or an error ({type: "stopped", panel, message}) ends the play.

import { boundaryGrid, GRID_RESOLUTION } from "./boundary.js";
import { loadScratchgrad } from "./load-scratchgrad.js";
import { serveRequests } from "./serve-requests.js";

const SLICE_MS = 40; // a slice, its grid and the page's drawing: up to ~22 views a second (≥ 20 is the aim)

let playground = null; // the Python module scratchgrad.playground.panel
const panels = new Map(); // panel id → {session, plane, features, neurons, playing}

const post = (message) => self.postMessage(message);

// The next slice is queued as a message to this worker itself, not with setTimeout(…, 0): a
// timer set by a timer is held back to ≥ 4 ms once they nest five deep, which cost every slice
// ~5 ms (headless Chromium, 200 chained turns: 963 ms by setTimeout, 1.5 ms by a MessageChannel).
// A "pause" the page posted during a slice was queued before this message, so it is still read
// between two slices.
const slices = new MessageChannel();
slices.port1.onmessage = ({ data: id }) => trainSlice(id);
const trainSoon = (id) => slices.port2.postMessage(id);

async function start({ indexURL, lockFileURL }) {
  const started = performance.now();
  const { pyodide, bootedFrom } = await loadScratchgrad({ indexURL, lockFileURL });
  playground = pyodide.pyimport("scratchgrad.playground.panel");
  return {
    startupMs: Math.round(performance.now() - started),
    bootedFrom,
  };
}

function panelFor(id) {
  if (!panels.has(id)) {
    panels.set(id, { session: playground.PanelSession(), plane: null, neurons: true, playing: false });
  }
  return panels.get(id);
}

function configured(id) {
  const panel = panels.get(id);
  if (!panel?.session.stepper) throw new Error("this panel has no usable settings yet");
  return panel;
}

/** A frame as the page draws it: Python's numbers plus the boundary grid (when there is a plane). */
function withGrid(panel, frame) {
  const grid = panel.plane
    ? boundaryGrid(frame.layers, panel.plane, panel.features, GRID_RESOLUTION, panel.neurons)
    : null;
  return { frame, grid };
}

function configure({ panel: id, query, preset = "", yourWork = "{}", neurons = true }) {
  const panel = panelFor(id);
  panel.playing = false;
  panel.neurons = neurons;
  const answer = JSON.parse(panel.session.configure(query, preset, yourWork));
  panel.plane = answer.view?.plane ?? null;
  panel.features = answer.view?.features;
  return { answer, ...(answer.frame ? withGrid(panel, answer.frame) : {}) };
}

function step({ panel: id, count = 1 }) {
  const panel = configured(id);
  panel.playing = false;
  return withGrid(panel, JSON.parse(panel.session.step(count)));
}

function reset({ panel: id }) {
  const panel = configured(id);
  panel.playing = false;
  return withGrid(panel, JSON.parse(panel.session.reset()));
}

function play({ panel: id }) {
  const panel = configured(id);
  if (!panel.playing) {
    panel.playing = true;
    trainSoon(id);
  }
  return {};
}

/** Answered after every frame of the play has been posted: the page has them all when it hears back. */
function pause({ panel: id }) {
  const panel = panels.get(id);
  if (panel) panel.playing = false;
  return {};
}

/** The trained network as files to save: {json, python} (scratchgrad.playground.model_file). */
function exportModel({ panel: id }) {
  return JSON.parse(configured(id).session.export_model());
}

/** Configure from a model file and load its weights; a refused file leaves the panel as it was. */
function importModel({ panel: id, text, yourWork = "{}", neurons = true }) {
  const panel = panelFor(id);
  panel.playing = false;
  panel.neurons = neurons;
  const answer = JSON.parse(panel.session.import_model(text, yourWork));
  if (!answer.frame) return { answer };
  panel.plane = answer.view?.plane ?? null;
  panel.features = answer.view?.features;
  return { answer, ...withGrid(panel, answer.frame) };
}

/** Show the neurons' maps from now on, or stop computing them; the grid of `frame` drawn that way. */
function showNeurons({ panel: id, show, frame }) {
  const panel = panelFor(id);
  panel.neurons = show;
  return frame ? withGrid(panel, frame) : {};
}

function code({ panel: id, steps }) {
  return { code: configured(id).session.code(steps) };
}

function dispose({ panel: id }) {
  const panel = panels.get(id);
  if (panel) {
    panel.playing = false;
    panel.session.destroy();
    panels.delete(id);
  }
  return {};
}

function trainSlice(id) {
  const panel = panels.get(id);
  if (!panel?.playing) return;
  try {
    const { frame, grid } = withGrid(panel, JSON.parse(panel.session.train_for(SLICE_MS)));
    if (frame.note) panel.playing = false;
    post({ type: "frame", panel: id, frame, grid, playing: panel.playing });
  } catch (error) {
    panel.playing = false;
    post({ type: "stopped", panel: id, message: String(error?.message ?? error) });
    return;
  }
  if (panel.playing) trainSoon(id);
}

serveRequests({
  start,
  configure,
  step,
  reset,
  play,
  pause,
  showNeurons,
  code,
  exportModel,
  importModel,
  dispose,
});
