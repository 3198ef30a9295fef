// The page's side of when search starts (held-search.js explains why it waits).
//
// Search starts once `pythonStarted` settles — the page's Python is ready, or failed — and at
// once when the reader reaches for the search box first: the index builds while they type.

import { MAY_SEARCH_START, SEARCH_CHANNEL, SEARCH_MAY_START } from "./search-channel.js";

const SEARCH_BOX = "[data-md-component=search-query]";

/**
 * Let Material's search worker start when `pythonStarted` settles (a promise), or when the
 * search box gets the focus. The channel stays open: a worker that asks later gets the answer.
 */
export function letSearchStart(pythonStarted, channel = new BroadcastChannel(SEARCH_CHANNEL)) {
  let allowed = false;
  const allow = () => {
    if (allowed) return;
    allowed = true;
    document.removeEventListener("focusin", onFocus);
    channel.postMessage(SEARCH_MAY_START);
  };
  const onFocus = (event) => {
    if (event.target.matches?.(SEARCH_BOX)) allow();
  };
  channel.onmessage = ({ data }) => {
    if (data === MAY_SEARCH_START && allowed) channel.postMessage(SEARCH_MAY_START);
  };
  document.addEventListener("focusin", onFocus);
  pythonStarted.then(allow, allow);
}
