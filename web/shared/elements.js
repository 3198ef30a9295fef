// The page's elements made in one call, as every control here builds them: a tag, its class,
// its attributes (title, role, aria-live …) and its text.

/** A new `<tag>` of class `className` with `attributes` and `text`. */
export function createElement(tag, className, attributes = {}, text = "") {
  const element = document.createElement(tag);
  element.className = className;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.textContent = text;
  return element;
}
