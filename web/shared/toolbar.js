// The page's buttons, the row of them under an editor (runnable blocks and exercises), and the
// short texts beside them ("edited", a run's state, what an action did) are `createElement`'s spans.

/** A `<button>` of class `sg-button` (and `sg-button--<name>` when named) that runs `action` on click. */
export function createButton(name, text, title, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = name ? `sg-button sg-button--${name}` : "sg-button";
  button.textContent = text;
  button.title = title;
  button.addEventListener("click", action);
  return button;
}

/**
 * A new `.sg-toolbar` and `add(name, text, title, action)`, which appends a `createButton`,
 * records it as `buttons[name]` and returns it.
 */
export function createToolbar(buttons) {
  const bar = document.createElement("div");
  bar.className = "sg-toolbar";
  const add = (name, text, title, action) => {
    buttons[name] = createButton(name, text, title, action);
    bar.append(buttons[name]);
    return buttons[name];
  };
  return { bar, add };
}
