// The fixed parts of a playground panel: the bar (buttons, numbers, status), the two views with
// their captions, the note, and for a compact panel the link to the full Playground.
//
// Built once per panel; panel.js fills them in and adds the settings form and "Show the code".

/**
 * Empty `element` and build the panel's parts in it.
 * @param {HTMLElement} element the div.sg-playground
 * @param {{full: boolean, onPlay: () => void, onStep: () => void, onReset: () => void}} options
 *   onPlay is the Play / Pause button's action
 * @returns {{buttons: {play, step, reset}, stats: {steps, loss, accuracy, test, rate}, status: HTMLElement,
 *   pace: HTMLElement, body: HTMLElement, boundary: HTMLCanvasElement, boundaryCaption: HTMLElement,
 *   chart: HTMLCanvasElement, note: HTMLElement, link: HTMLAnchorElement | null}}
 */
export function buildPanelLayout(element, { full, onPlay, onStep, onReset }) {
  const buttons = {
    play: button("play", "Play", "Train continuously (press again to pause)", onPlay),
    step: button("step", "Step", "Take exactly one training step", onStep),
    reset: button("reset", "Reset", "Back to the untrained network (same settings and seed)", onReset),
  };
  const buttonGroup = tag("div", "sg-pg-buttons");
  buttonGroup.append(...Object.values(buttons));
  const stats = {};
  const statGroup = tag("div", "sg-pg-stats");
  statGroup.setAttribute("role", "group");
  statGroup.setAttribute("aria-label", "Training numbers");
  for (const name of ["steps", "loss", "accuracy", "test", "rate"]) {
    stats[name] = tag("span", `sg-pg-stat sg-pg-stat--${name}`);
    statGroup.append(stats[name]);
  }
  const status = tag("span", "sg-pg-status");
  status.setAttribute("role", "status");
  const bar = tag("div", "sg-pg-bar");
  bar.append(buttonGroup, statGroup, status);
  const pace = tag("p", "sg-pg-pace"); // engine=yours: the reader's engine against the book's
  pace.hidden = true;

  const boundary = canvas("sg-pg-boundary", "Decision boundary (loading)");
  const chart = canvas(
    "sg-pg-chart",
    "Loss (solid) and accuracy (dashed) at every step; the held-out points' loss (dotted)",
  );
  const boundaryFigure = figure(boundary, "");
  const views = tag("div", "sg-pg-views");
  views.append(
    boundaryFigure,
    figure(chart, "Loss (solid), accuracy (dashed, 0–100 %) and held-out loss (dotted) per step"),
  );
  const body = tag("div", "sg-pg-body");
  body.append(views);
  const note = tag("p", "sg-pg-note");
  note.setAttribute("role", "alert");
  note.hidden = true;

  element.replaceChildren(bar, pace, body, note);
  const link = full ? null : tag("a", "sg-pg-open", "Open in the Playground (all settings, shareable link)");
  if (link) element.append(link);
  const boundaryCaption = boundaryFigure.querySelector("figcaption");
  return { buttons, stats, status, pace, body, boundary, boundaryCaption, chart, note, link };
}

function tag(name, className, text = "") {
  const created = document.createElement(name);
  created.className = className;
  if (text) created.textContent = text;
  return created;
}

/** A panel button: class sg-pg-`name`, its `text`, a tooltip `title`, `action` on click. */
export function button(name, text, title, action) {
  const created = tag("button", `sg-button sg-pg-${name}`, text);
  created.type = "button";
  created.title = title;
  created.addEventListener("click", action);
  return created;
}

function canvas(className, label) {
  const created = tag("canvas", className);
  created.setAttribute("role", "img");
  created.setAttribute("aria-label", label);
  return created;
}

function figure(drawing, caption) {
  const wrapper = tag("figure", "sg-pg-figure");
  wrapper.append(drawing, tag("figcaption", "", caption));
  return wrapper;
}
