// A break-it switch (scratchgrad.page.break_it): on, the block runs again with a bug switched
// into the package, and that run's output appears under the right one, wrong against right.

/** The switch, labelled `label`, on its own row: `onToggle(on)` is called when it changes. */
export function createBreakSwitch(label, onToggle) {
  const row = document.createElement("label");
  row.className = "sg-break";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.setAttribute("role", "switch");
  box.addEventListener("change", () => onToggle(box.checked));
  row.append(box, ` ${label}`);
  return row;
}

/**
 * A result area for the run with the bug, after `result` (the block's own div.sg-result), and its
 * heading; the caller puts the heading above what the run writes.
 */
export function createBugArea(result, label) {
  const area = document.createElement("div");
  area.className = "sg-result sg-result--bug";
  const heading = document.createElement("p");
  heading.className = "sg-bug-heading";
  heading.textContent = `With the bug: ${label}`;
  result.after(area);
  return { area, heading };
}
