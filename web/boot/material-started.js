// When Material's bundle has started on this page: the one name the loader
// (material-after-paint.js) and the runner (../main.js) share.

/** The event the loader sends on `document` once Material's bundle has run: its document$ exists
 * (it announces this page when it mounts it, at once or at the DOMContentLoaded still to come). */
export const MATERIAL_STARTED = "sg:material-started";

/** Whether this page loads Material: the loader (material-after-paint.js, with its data-material)
 * is in it. A page built without the theme, or a test's bare page, has none. */
export function materialIsComing() {
  return document.querySelector("script[data-material]") !== null;
}

/** Call `callback` once Material has started: now, if its `document$` exists, else on the event. */
export function whenMaterialStarted(callback) {
  if (globalThis.document$) callback();
  else document.addEventListener(MATERIAL_STARTED, callback, { once: true });
}
