// The settings form: one control per field Python describes (scratchgrad.playground.FIELDS).
//
// The controls hold text exactly as a URL would; Python reads and checks it (one message per bad
// field), so the rules live in one place. A field of several choices (the features) is a group of
// checkboxes whose value is that text too: the ticked names, comma-separated. A message appears next to its control, which is then
// marked invalid for assistive technology too.

let nextFormId = 1;

export class SettingsForm {
  #controls = new Map(); // field name → {input, message}
  #values = new Map(); // every field's current text, shown or not
  element;

  /**
   * @param {object[]} fields the field descriptions ({name, label, kind, choices, help, clears}); a change
   *   of a field leaves the fields it clears out of the query, for Python to choose again
   * @param {string[] | null} shown the names to give a control (null: every field)
   * @param {() => void} onChange called when the reader changes a control
   */
  constructor(fields, shown, onChange) {
    const formId = nextFormId++;
    this.element = document.createElement("form");
    this.element.className = "sg-pg-controls";
    this.element.addEventListener("submit", (event) => event.preventDefault());
    for (const field of fields) {
      if (shown && !shown.includes(field.name)) continue;
      const id = `sg-pg-${formId}-${field.name}`;
      const row = document.createElement("div");
      row.className = "sg-pg-field";
      row.dataset.field = field.name;
      const label = document.createElement(field.kind === "features" ? "span" : "label");
      if (field.kind === "features") label.id = `${id}-label`;
      else label.htmlFor = id;
      label.className = "sg-pg-label";
      label.textContent = field.label;
      label.title = field.help ?? "";
      const input =
        field.kind === "choice"
          ? select(field.choices)
          : field.kind === "features"
            ? checkboxes(field, id)
            : textInput(field.kind);
      input.id = id;
      input.name = field.name;
      input.title = field.help ?? "";
      input.dataset.help = field.help ?? "";
      input.addEventListener("change", () => {
        this.#values.set(field.name, input.value);
        for (const name of field.clears ?? []) this.#values.delete(name);
        onChange();
      });
      const message = document.createElement("span");
      message.className = "sg-pg-message";
      message.id = `${id}-message`;
      message.hidden = true;
      input.setAttribute("aria-describedby", message.id);
      row.append(label, input, message);
      this.element.append(row);
      this.#controls.set(field.name, { input, message });
    }
  }

  /** Show the values of a query string (missing fields keep theirs). */
  fill(query) {
    for (const [name, text] of new URLSearchParams(query)) {
      this.#values.set(name, text);
      const control = this.#controls.get(name);
      if (control) control.input.value = text;
    }
  }

  /** Every field's text as a query string, commas left readable. */
  query() {
    return [...this.#values]
      .map(([name, text]) => `${encodeURIComponent(name)}=${encodeURIComponent(text).replaceAll("%2C", ",")}`)
      .join("&");
  }

  /** Put each message next to its control; returns the messages that have no control shown here. */
  showProblems(problems) {
    const elsewhere = [];
    for (const [name, { input, message }] of this.#controls) {
      const text = problems[name];
      message.hidden = !text;
      message.textContent = text ?? "";
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    for (const [name, text] of Object.entries(problems)) {
      if (!this.#controls.has(name)) elsewhere.push(text);
    }
    return elsewhere;
  }

  /** Grey out the controls of fields that change nothing for the current settings. */
  markUnused(names) {
    for (const [name, { input }] of this.#controls) {
      const unused = names.includes(name);
      input.closest(".sg-pg-field").classList.toggle("sg-pg-field--unused", unused);
      input.title = unused ? "Changes nothing with the current settings" : (input.dataset.help ?? "");
    }
  }

  set disabled(disabled) {
    for (const { input } of this.#controls.values()) input.disabled = disabled;
  }
}

function select(choices) {
  const element = document.createElement("select");
  for (const choice of choices) element.add(new Option(choice, choice));
  return element;
}

/**
 * A group of checkboxes, one per choice (labelled as `field.written` writes it), that behaves as a
 * text control: its `value` is the ticked names in the choices' order, comma-separated, and setting
 * it ticks those. A change of any box is a change of the group (the event bubbles up to it).
 */
function checkboxes(field, id) {
  const group = document.createElement("fieldset");
  group.className = "sg-pg-choices";
  group.setAttribute("aria-labelledby", `${id}-label`);
  const boxes = field.choices.map((choice, index) => {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = choice;
    box.id = `${id}-${choice}`;
    const label = document.createElement("label");
    label.htmlFor = box.id;
    label.textContent = field.written?.[index] ?? choice;
    const item = document.createElement("span");
    item.className = "sg-pg-choice";
    item.append(box, label);
    group.append(item);
    return box;
  });
  Object.defineProperty(group, "value", {
    get: () =>
      boxes
        .filter((box) => box.checked)
        .map((box) => box.value)
        .join(","),
    set: (text) => {
      const ticked = new Set(
        String(text)
          .split(",")
          .map((name) => name.trim()),
      );
      for (const box of boxes) box.checked = ticked.has(box.value);
    },
  });
  return group;
}

function textInput(kind) {
  const element = document.createElement("input");
  element.type = "text";
  element.autocomplete = "off";
  element.spellcheck = false;
  element.inputMode = kind === "float" ? "decimal" : kind === "int" ? "numeric" : "text";
  return element;
}
