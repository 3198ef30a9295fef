// When a page has settled: the moment the runner starts the page's Python, unless the reader asks first.
//
// Pyodide's boot is seconds of CPU on a worker thread, and its download megabytes. Started while
// the page was still loading, it competed with Material's bundle and the first style and layout
// for a phone's cores and network, and tripled the chapter's blocking time in Lighthouse (mobile;
// the figures are in benchmarks/README.md). So Python waits for the page, and a reader who runs a
// block or checks an exercise before then starts it at once (PythonRuntime.run starts it).

/** Longest wait for an idle moment once the page is mounted: a busy page still gets its Python. */
export const IDLE_TIMEOUT_MS = 1000;

/**
 * Resolves after `mounted` (a promise: Material has mounted the page) and then the browser's next
 * idle moment (or IDLE_TIMEOUT_MS, whichever is first; a browser without requestIdleCallback,
 * WebKit, waits for one task instead).
 */
export async function afterSettling(mounted) {
  await mounted;
  await new Promise((resolve) => {
    if (globalThis.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(resolve);
  });
}
