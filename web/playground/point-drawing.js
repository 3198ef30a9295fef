// "Draw data": the reader places, moves and removes their own points on the plane (dataset=drawn).
//
// The points travel as the `drawn` setting's text, x₁,x₂,class joined by ";" (Python's
// scratchgrad.playground.settings owns that form and checks every point); this side only edits
// the list and hands the text back. Mouse or touch: click (tap) to place a point of the chosen
// class, drag one to move it, right-click one to remove it. Keyboard, on the focused plane: Enter
// places a point at the centre, the arrows move the last touched point, Delete removes it, 0 and
// 1 choose the class.

const HIT_PX = 10; // how near (CSS pixels) a click must land to take hold of a point
const KEY_STEP = 0.05; // how far an arrow key moves a point, in plane units
const DIGITS = 2; // decimals of a drawn coordinate: enough for a hand, short in a URL

export class PointDrawing {
  element;
  #canvas;
  #plane;
  #onChange;
  #points = []; // [x₁, x₂, class]
  #active = false;
  #class = 1;
  #held = null; // the index of the point being dragged
  #moved = false; // whether the held point has moved since it was taken
  #last = null; // the index of the point last placed, moved or picked (for the keyboard)
  #toggle;
  #classButtons;

  /**
   * @param {HTMLCanvasElement} canvas the plane the points are drawn on
   * @param {number[]} plane the drawing square [x_min, x_max, y_min, y_max] (Python's DRAWN_PLANE)
   * @param {(text: string) => void} onChange called with the points as the `drawn` setting's text
   */
  constructor(canvas, plane, onChange) {
    this.#canvas = canvas;
    this.#plane = plane;
    this.#onChange = onChange;
    this.element = document.createElement("div");
    this.element.className = "sg-pg-draw";
    this.#toggle = button("Draw data", "Place your own points on the plane (data set drawn)", () =>
      this.#setActive(!this.#active),
    );
    this.#toggle.setAttribute("aria-pressed", "false");
    this.#classButtons = [0, 1].map((cls) =>
      button(`Class ${cls}`, `New points are class ${cls} (key ${cls})`, () => this.#choose(cls)),
    );
    const clear = button("Clear", "Remove every drawn point", () => this.#commit([]));
    const help = document.createElement("span");
    help.className = "sg-pg-draw-help";
    help.textContent =
      "Click to place, drag to move, right-click to remove; keys: Enter places, arrows move, Delete removes.";
    this.element.append(this.#toggle, ...this.#classButtons, clear, help);
    this.#setActive(false);
    this.#choose(1);
    canvas.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
    canvas.addEventListener("pointermove", (event) => this.#onPointerMove(event));
    canvas.addEventListener("pointerup", () => this.#release());
    canvas.addEventListener("pointercancel", () => this.#release());
    canvas.addEventListener("contextmenu", (event) => this.#onContextMenu(event));
    canvas.addEventListener("keydown", (event) => this.#onKey(event));
  }

  get active() {
    return this.#active;
  }

  /** The points of the settings `query` (unreadable parts are left to Python's message); drawing
   * stays on while its data set is drawn. */
  load(query) {
    const settings = new URLSearchParams(query);
    this.#points = (settings.get("drawn") ?? "")
      .split(";")
      .map((part) => part.split(",").map(Number))
      .filter((numbers) => numbers.length === 3 && numbers.every(Number.isFinite));
    this.#show(settings.get("dataset") === "drawn");
  }

  /** The view BoundaryView draws while the drawn points cannot train yet: the square and the points. */
  view() {
    return {
      inputs: 2,
      classes: 2,
      plane: this.#plane,
      points: this.#points.map(([x, y]) => [x, y]),
      labels: this.#points.map(([, , cls]) => (cls === 1 ? 1 : 0)),
    };
  }

  #setActive(active) {
    this.#show(active);
    if (active) this.#commit(this.#points);
  }

  #show(active) {
    this.#active = active;
    this.#toggle.setAttribute("aria-pressed", String(active));
    this.#toggle.classList.toggle("sg-pg-draw--on", active);
    for (const child of this.element.children) if (child !== this.#toggle) child.hidden = !active;
    this.#canvas.tabIndex = active ? 0 : -1;
    this.#canvas.classList.toggle("sg-pg-boundary--drawing", active);
  }

  #choose(cls) {
    this.#class = cls;
    this.#classButtons.forEach((b, i) => b.setAttribute("aria-pressed", String(i === cls)));
  }

  #commit(points) {
    this.#points = points;
    if (this.#last !== null && this.#last >= points.length) this.#last = null;
    this.#onChange(points.map(([x, y, cls]) => `${round(x)},${round(y)},${cls}`).join(";"));
  }

  /** The plane coordinates under a pointer event, kept inside the square. */
  #at(event) {
    const box = this.#canvas.getBoundingClientRect();
    const [xMin, xMax, yMin, yMax] = this.#plane;
    const x = xMin + ((event.clientX - box.left) / box.width) * (xMax - xMin);
    const y = yMax - ((event.clientY - box.top) / box.height) * (yMax - yMin);
    return [clamp(x, xMin, xMax), clamp(y, yMin, yMax)];
  }

  /** The index of the point within HIT_PX of the event, or null. */
  #hit(event) {
    const box = this.#canvas.getBoundingClientRect();
    const [xMin, xMax, yMin, yMax] = this.#plane;
    let best = null;
    let bestDistance = HIT_PX;
    this.#points.forEach(([x, y], i) => {
      const px = box.left + ((x - xMin) / (xMax - xMin)) * box.width;
      const py = box.top + ((yMax - y) / (yMax - yMin)) * box.height;
      const distance = Math.hypot(px - event.clientX, py - event.clientY);
      if (distance <= bestDistance) [best, bestDistance] = [i, distance];
    });
    return best;
  }

  #onPointerDown(event) {
    if (!this.#active || event.button !== 0) return;
    event.preventDefault();
    this.#canvas.focus();
    const hit = this.#hit(event);
    if (hit !== null) {
      this.#held = this.#last = hit;
      this.#canvas.setPointerCapture?.(event.pointerId);
      return;
    }
    this.#last = this.#points.length;
    this.#commit([...this.#points, [...this.#at(event), this.#class]]);
  }

  #onPointerMove(event) {
    if (this.#held === null) return;
    const [x, y] = this.#at(event);
    this.#points[this.#held] = [x, y, this.#points[this.#held][2]];
    this.#moved = true;
  }

  #release() {
    if (this.#held === null) return;
    this.#held = null;
    if (this.#moved) this.#commit(this.#points);
    this.#moved = false;
  }

  #onContextMenu(event) {
    if (!this.#active) return;
    event.preventDefault();
    const hit = this.#hit(event);
    if (hit !== null) this.#commit(this.#points.filter((_, i) => i !== hit));
  }

  #onKey(event) {
    if (!this.#active) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const last = this.#last;
    if (event.key === "Enter") {
      this.#last = this.#points.length;
      this.#commit([...this.#points, [0, 0, this.#class]]);
    } else if (event.key === "0" || event.key === "1") {
      this.#choose(Number(event.key));
    } else if ((event.key === "Delete" || event.key === "Backspace") && last !== null) {
      this.#commit(this.#points.filter((_, i) => i !== last));
    } else if (event.key in moves && last !== null) {
      const [dx, dy] = moves[event.key];
      const [xMin, xMax, yMin, yMax] = this.#plane;
      const [x, y, cls] = this.#points[last];
      const moved = [clamp(x + dx * KEY_STEP, xMin, xMax), clamp(y + dy * KEY_STEP, yMin, yMax), cls];
      this.#commit(this.#points.map((point, i) => (i === last ? moved : point)));
    } else {
      return;
    }
    event.preventDefault();
  }
}

function button(text, title, action) {
  const created = document.createElement("button");
  created.type = "button";
  created.className = "sg-button sg-pg-draw-button";
  created.textContent = text;
  created.title = title;
  created.addEventListener("click", action);
  return created;
}

function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

function round(value) {
  return String(Number(value.toFixed(DIGITS)));
}
