// A slider for one number in a block's code (the block's slider= option, hooks/helpers/block_slider.py).
//
// The code sets the number on a line of its own (`lr = 0.1`). Moving the slider rewrites that
// number in the reader's editor — an edit like any typed one, kept and undoable — and runs the
// block again once the slider rests, so what the page shows is still the output of the code. If the
// reader's code no longer has such a line, the slider says so and does nothing.

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`; // as hooks/helpers/block_slider.py
const RUN_AFTER_MS = 250; // a run once the reader stops moving, not one per arrow key

/** The line of `code` that sets `name` to a plain number: groups (before the number, the number). */
function assignment(name) {
  return new RegExp(String.raw`^(${name}\s*=\s*)(${NUMBER})(?=\s*(?:#.*)?$)`, "m");
}

/** The number `code` sets `name` to, or null when no line of its own sets it to a plain number. */
export function valueIn(code, name) {
  const match = assignment(name).exec(code);
  return match ? Number(match[2]) : null;
}

/** `code` with `name`'s number replaced by `value`, or null when there is no such line. */
export function withValue(code, name, value) {
  const pattern = assignment(name);
  return pattern.test(code) ? code.replace(pattern, (_, before) => before + value) : null;
}

/** `value` written with as many decimals as `step` has, so 0.1 + 0.02 reads 0.12. */
export function formatted(value, step) {
  const decimals = (String(step).split(".")[1] ?? "").length;
  return Number(value).toFixed(decimals);
}

/**
 * The slider's row for a block: `spec` is {name, min, max, step, value}; `editor` is the block's
 * {getCode, setCode}; `run()` runs the block. Returns {row, follow}: the row's element, and
 * follow(), to call after any other edit of the code so the slider shows the number it now sets.
 */
export function createSlider(spec, editor, run) {
  const row = document.createElement("div");
  row.className = "sg-slider";
  const input = document.createElement("input");
  input.type = "range";
  input.id = `sg-slider-${Math.random().toString(36).slice(2)}`;
  Object.assign(input, { min: spec.min, max: spec.max, step: spec.step });
  const label = document.createElement("label");
  label.htmlFor = input.id;
  label.textContent = spec.name;
  const shown = document.createElement("output");
  shown.htmlFor = input.id;
  const note = document.createElement("span");
  note.className = "sg-slider-note";
  note.setAttribute("role", "status");
  row.append(label, input, shown, note);

  let pending = null;
  const show = (value) => {
    shown.textContent = formatted(value, spec.step);
    input.setAttribute("aria-valuetext", `${spec.name} = ${shown.textContent}`);
  };
  const follow = () => {
    const value = valueIn(editor.getCode(), spec.name);
    input.disabled = value === null;
    note.textContent = value === null ? `No line “${spec.name} = …” in the code: Reset code brings it back.` : "";
    if (value !== null && document.activeElement !== input) {
      input.value = String(value);
      show(value);
    }
  };
  input.addEventListener("input", () => {
    show(input.value);
    const code = withValue(editor.getCode(), spec.name, formatted(input.value, spec.step));
    if (code === null) return follow();
    editor.setCode(code);
    clearTimeout(pending);
    pending = setTimeout(run, RUN_AFTER_MS);
  });
  input.value = String(spec.value);
  show(spec.value);
  follow();
  return { row, follow };
}
