// Material's search, held back until the page lets it start (search-worker.js runs this).
//
// Material's page script creates its search worker as the page loads and sends it the whole
// search index (~690 KB of text for this tutorial) at once; the worker builds a lunr index from
// it, about half a second of CPU. On a first visit that half second competes with Pyodide's
// start-up for the same cores: measured on two cores, Python was ready ~0.45 s later with search
// than without. So the site's search worker keeps what the page sends it, unread, until the page
// lets search start (search-gate.js) — then it loads Material's own worker and hands it every
// message it held, in order. Nobody can search before that anyway: Material says "Initializing
// search" until its worker answers, and the page lets search start as soon as the reader reaches
// for the search box.

import { MAY_SEARCH_START, SEARCH_MAY_START } from "./search-channel.js";

/** However long the page takes, search starts this long after the worker was created. */
const SEARCH_DEADLINE_MS = 10_000;

/**
 * Hold the messages `scope` receives until the page (over `channel`) lets search start, or
 * until `deadlineMs` have passed; then `loadMaterial()` (which adds Material's message listener
 * to `scope`) and replay what was held.
 */
export function holdSearch({ scope, channel, loadMaterial, deadlineMs = SEARCH_DEADLINE_MS }) {
  const held = [];
  const hold = (event) => held.push(event.data);
  let started = false;
  let deadline = null;

  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(deadline);
    channel.close();
    scope.removeEventListener("message", hold);
    loadMaterial();
    for (const data of held) scope.dispatchEvent(new MessageEvent("message", { data }));
  };

  scope.addEventListener("message", hold);
  channel.onmessage = ({ data }) => {
    if (data === SEARCH_MAY_START) start();
  };
  channel.postMessage(MAY_SEARCH_START);
  deadline = setTimeout(start, deadlineMs);
}
