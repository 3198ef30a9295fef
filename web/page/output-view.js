// Writes one run's output into a block's result area, the way the build wrote it.
//
// The structure matches what hooks/runnable.py puts in the page (pre.sg-output with the error
// last in span.sg-error, then div.sg-figure drawings), so one stylesheet serves both, and a
// test can compare the browser's text with CPython's. Printed text is added as text nodes,
// never parsed as HTML; only the SVG of a graph (already sanitized) is markup.
//
// Text arrives in batches from the worker; it is written at most once per animation frame,
// so a training loop that prints fast costs the page one small DOM update per frame.

const MAX_OUTPUT_CHARS = 200_000;

export class OutputView {
  #result;
  #pre = null;
  #queue = [];
  #frame = 0;
  #chars = 0;
  #truncated = false;

  /** @param {HTMLElement} result the block's div.sg-result */
  constructor(result) {
    this.#result = result;
  }

  /** Clear the build's (or the last run's) text, graphs and notes; keep the build's plots. */
  begin() {
    this.#cancelFrame();
    for (const child of [...this.#result.children]) {
      if (!child.classList.contains("sg-plot")) child.remove();
    }
    this.#result.dataset.sgOrigin = "browser";
    this.#pre = null;
    this.#queue = [];
    this.#chars = 0;
    this.#truncated = false;
  }

  /** Queue printed text of `stream` ("stdout" or "stderr") for the next frame. */
  write(stream, text) {
    if (this.#truncated) return;
    const room = MAX_OUTPUT_CHARS - this.#chars;
    if (text.length > room) {
      text = text.slice(0, room);
      this.#truncated = true;
    }
    this.#chars += text.length;
    this.#queue.push([stream, text]);
    this.#frame ||= requestAnimationFrame(() => this.flush());
  }

  /** Write everything queued now (the end of a run does not wait for a frame). */
  flush() {
    this.#cancelFrame();
    if (this.#queue.length === 0) return;
    const pre = this.#outputElement();
    const fragment = document.createDocumentFragment();
    for (const [stream, text] of this.#queue) {
      if (stream === "stderr") {
        const span = document.createElement("span");
        span.className = "sg-stderr";
        span.textContent = text;
        fragment.append(span);
      } else {
        fragment.append(text);
      }
    }
    this.#queue = [];
    pre.insertBefore(fragment, pre.querySelector(":scope > .sg-error"));
    if (this.#truncated) this.note(`Output stopped at ${MAX_OUTPUT_CHARS.toLocaleString("en")} characters.`);
  }

  /**
   * The traceback of an error, last in the output, as the build shows an expected error; its
   * last line (``Type: message``) stands out from the frames above it.
   */
  error(traceback) {
    this.flush();
    const lines = traceback.replace(/\n$/, "").split("\n");
    const summary = document.createElement("strong");
    summary.className = "sg-error-summary";
    summary.textContent = lines.pop();
    const span = document.createElement("span");
    span.className = "sg-error";
    span.append(lines.length ? `${lines.join("\n")}\n` : "", summary);
    this.#outputElement().append(span);
  }

  /** A placeholder for a drawing of `kind` ("graph", "curve") that arrives later; returns the figure element. */
  figure(kind, label) {
    this.flush();
    const figure = document.createElement("div");
    figure.className = `sg-figure sg-${kind}`;
    if (label) figure.setAttribute(`data-sg-${kind}`, label); // as the build marks the block's option
    figure.setAttribute("aria-busy", "true");
    this.#insertBeforeNotes(figure);
    return figure;
  }

  /**
   * Mark (or unmark) the build's output as belonging to the page's original code: true once
   * the reader's version differs from it, until a run replaces that output.
   */
  markFromOriginal(marked, message) {
    const fromBuild = this.#result.dataset.sgOrigin === "build";
    const shown = this.#result.querySelector(":scope > .sg-note--original");
    const hasOutput = this.#result.querySelector(":scope > :not(.sg-note)") !== null;
    this.#result.classList.toggle("sg-result--from-original", marked && fromBuild && hasOutput);
    if (marked && fromBuild && hasOutput && !shown) {
      const note = this.note(message);
      note.classList.add("sg-note--original");
      this.#result.prepend(note);
    }
    if (!(marked && fromBuild) && shown) shown.remove();
  }

  /** A message from the runner itself (stopped, restarted, failed to load), outside the output. */
  note(message, kind = "info") {
    const note = document.createElement("p");
    note.className = `sg-note sg-note--${kind}`;
    note.setAttribute("role", kind === "error" ? "alert" : "status");
    note.textContent = message;
    this.#result.append(note);
    return note;
  }

  #outputElement() {
    if (!this.#pre) {
      this.#pre = document.createElement("pre");
      this.#pre.className = "sg-output";
      this.#result.prepend(this.#pre);
    }
    return this.#pre;
  }

  #insertBeforeNotes(element) {
    this.#result.insertBefore(element, this.#result.querySelector(":scope > .sg-plot, :scope > .sg-note"));
  }

  #cancelFrame() {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }
}
