// The full panel's settings in the page URL: every change the reader makes is a history entry,
// so Back and Forward bring settings back and a link shares them. A compact panel (in a
// chapter) leaves the URL alone and links to the Playground page with its settings.
//
// Drawn points too many for a link (settings longer than LINK_LIMIT characters) are kept in the
// page instead: in localStorage under a key made from the points, the URL saying drawn=kept-KEY.
// A reload, Back and Forward (and another tab of the same browser) find them there; a link sent
// elsewhere does not, and the panel says so (keptPointsMissing).

import { keysStartingWith, readJSON, remove, writeJSON } from "../shared/storage.js";

const LINK_LIMIT = 2000; // longer links are cut by many mail and chat programs, refused by some servers
const KEPT = "kept-"; // drawn=kept-KEY: the points are in localStorage under STORE + KEY
const STORE = "scratchgrad-playground-drawn:";
const STORED_AT_MOST = 20; // sets of points kept; the oldest go first
const KEPT_IN_URL = /(^|&)drawn=kept-([0-9a-z]+)(?=&|$)/;

/** The page URL's settings as a query string ("" when it carries none), points kept in the page put back. */
export function settingsInURL() {
  const query = location.search.replace(/^\?/, "");
  const kept = KEPT_IN_URL.exec(query);
  if (!kept) return query;
  return query.replace(kept[0], `${kept[1]}drawn=${readKept(kept[2]) ?? ""}`);
}

/** Whether the URL names drawn points kept in a page that this browser does not have (a shared link). */
export function keptPointsMissing() {
  const kept = KEPT_IN_URL.exec(location.search.replace(/^\?/, ""));
  return kept !== null && readKept(kept[2]) === null;
}

/**
 * Write the settings into the page URL: a new history entry ("push"), in place ("replace"), or not
 * ("none"). Returns true when drawn points were too many for the URL and are kept in the page.
 */
export function recordInURL(query, how) {
  const { link, kept } = linkFor(query);
  const shown = location.search.replace(/^\?/, "");
  if (how === "none" || shown === link) return kept;
  if (how === "replace" && !shown) return kept; // a plain visit keeps its plain URL
  const url = `${location.pathname}?${link}${location.hash}`;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(history.state, "", url);
  return kept;
}

/** The query a link carries: `query` itself, or with its drawn points kept in the page when too long. */
function linkFor(query) {
  const drawn = /(^|&)drawn=([^&]*)/.exec(query);
  if (query.length <= LINK_LIMIT || !drawn) return { link: query, kept: false };
  const key = hashOf(drawn[2]);
  if (!writeJSON(STORE + key, { points: drawn[2], at: Date.now() })) {
    return { link: query, kept: false }; // no storage, or full: the long link it is
  }
  forgetOldest(STORE + key);
  return { link: query.replace(drawn[0], `${drawn[1]}drawn=${KEPT}${key}`), kept: true };
}

function readKept(key) {
  return readJSON(STORE + key)?.points ?? null;
}

/** Forget the oldest sets of points beyond STORED_AT_MOST, never `newest` (just written). */
function forgetOldest(newest) {
  const kept = keysStartingWith(STORE)
    .filter((key) => key !== newest)
    .map((key) => [readJSON(key)?.at ?? 0, key]);
  kept.sort(([a], [b]) => a - b);
  for (const [, key] of kept.slice(0, Math.max(0, kept.length + 1 - STORED_AT_MOST))) remove(key);
}

/** A short name for `text` (32-bit FNV-1a, in base 36): the same points, the same key. */
function hashOf(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
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
