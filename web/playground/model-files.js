// Take the trained network away, and bring it back: the panel's Export / Import row.
//
// Python writes and reads the files (scratchgrad.playground.model_file, through the worker): the
// JSON model file (settings, steps, every weight) and a standalone Python program that rebuilds
// the network with scratchgrad and predicts with it. This side only saves what Python wrote and
// hands Python the text of a chosen file; a file Python refuses gets its message in the panel.

import { button } from "./panel-layout.js";

/**
 * The row of buttons; `onExport(kind)` saves "json" or "python", `onImport(text, name)` reads a file.
 * Of a chosen file no more is read than one character past `limit` (Python's
 * model_file.MAX_FILE_CHARACTERS): a huge file is refused by Python's message, not read whole.
 * @returns {{element: HTMLElement, buttons: HTMLButtonElement[]}}
 */
export function buildModelFiles({ onExport, onImport, limit }) {
  const element = document.createElement("div");
  element.className = "sg-pg-files";
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", "Model files");
  const picker = document.createElement("input");
  picker.type = "file";
  picker.accept = ".json,application/json";
  picker.hidden = true;
  picker.addEventListener("change", async () => {
    const [file] = picker.files;
    picker.value = ""; // choosing the same file again is a new import
    if (file) onImport(await file.slice(0, limit + 1).text(), file.name);
  });
  const buttons = [
    button("export-json", "Export model", "Save the trained network as a JSON file you can import again", () =>
      onExport("json"),
    ),
    button("export-python", "Export as Python", "Save a Python program that rebuilds this network", () =>
      onExport("python"),
    ),
    button("import", "Import model…", "Load a network saved with Export model", () => picker.click()),
  ];
  element.append(...buttons, picker);
  return { element, buttons };
}

/** Offer `text` to the reader as a file called `name` (the browser's download). */
export function save(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
