// The full panel's settings in the page URL: every change the reader makes is a history entry,
// so Back and Forward bring settings back and a link shares them. A compact panel (in a
// chapter) leaves the URL alone and links to the Playground page with its settings.

/** The page URL's settings as a query string ("" when it carries none). */
export function settingsInURL() {
  return location.search.replace(/^\?/, "");
}

/** Write the settings into the page URL: a new history entry ("push"), in place ("replace"), or not ("none"). */
export function recordInURL(query, how) {
  if (how === "none" || settingsInURL() === query) return;
  if (how === "replace" && !settingsInURL()) return; // a plain visit keeps its plain URL
  const url = `${location.pathname}?${query}${location.hash}`;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(history.state, "", url);
}

// Where the Playground page is below the site's root (hooks/helpers/site_urls.py, through the bundle).
/* global PLAYGROUND_PAGE */

/** The Playground page's URL, from the site root Material writes into the page (#__config). */
export function playgroundURL() {
  let base = ".";
  try {
    base = JSON.parse(document.getElementById("__config")?.textContent ?? "{}").base ?? ".";
  } catch {
    // an unreadable config: the site root is this page's folder, as good a guess as any
  }
  return new URL(`${base}/${PLAYGROUND_PAGE}`, location.href).pathname;
}
