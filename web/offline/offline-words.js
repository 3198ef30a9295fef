// What the footer says of the site's offline state, as the service worker reports it
// (../isolation/coi-serviceworker.js, report()), and when a page is older than the site: pure
// functions, tested under Node.

const MB = 1e6;

/** Megabytes as a reader reads them: "28 MB", "0.4 MB". */
export function megabytes(bytes) {
  const mb = bytes / MB;
  return `${mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
}

/**
 * {text, action}: the words for `state` (null: not heard from the worker yet), and the button
 * they offer, {label, task} (the message the worker gets), or null.
 */
export function describeOffline(state) {
  if (!state || state.unavailable) return { text: "", action: null };
  if (!state.enabled) {
    return { text: "Not kept for offline reading.", action: { label: "Keep it offline", task: "keep-again" } };
  }
  const turnOff = { label: "Turn off", task: "forget" };
  if (state.progress && !state.current) {
    const { done, total } = state.progress;
    return { text: `Saving for offline reading… ${megabytes(done)} of ${megabytes(total)}`, action: turnOff };
  }
  if (state.current) return { text: `Available offline · ${megabytes(state.current.bytes)}`, action: turnOff };
  if (state.failure) return { text: `Not saved for offline reading yet (${state.failure}).`, action: null };
  return { text: "", action: null };
}

/** Whether the worker has seen a build published after the one `pageBuild` names (null: unknown). */
export function isNewerThanPage(state, pageBuild) {
  return Boolean(pageBuild && state?.published && state.published !== pageBuild);
}
