// A browser's DOM for the tests of page modules, from jsdom: document, DOMParser, Option and
// the rest become globals of this test process, as they are in a page.

import { JSDOM } from "jsdom";

const GLOBALS = ["window", "document", "DOMParser", "Option", "Event", "Node", "MutationObserver"];

/** Install a fresh, empty page's globals; returns its window. */
export function installDom() {
  return installDomAt(undefined);
}

/** Install the globals of a fresh, empty page at `url`; returns its window. */
export function installDomAt(url) {
  const { window } = new JSDOM("<!doctype html><html><head></head><body></body></html>", { url });
  for (const name of GLOBALS) globalThis[name] = name === "window" ? window : window[name];
  return window;
}
