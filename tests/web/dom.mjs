// A browser's DOM for the tests of page modules, from jsdom: document, DOMParser, Option and
// the rest become globals of this test process, as they are in a page.

import { JSDOM } from "jsdom";

const GLOBALS = ["window", "document", "DOMParser", "Option", "Event", "Node"];

/** Install a fresh, empty page's globals; returns its window. */
export function installDom() {
  const { window } = new JSDOM("<!doctype html><html><head></head><body></body></html>");
  for (const name of GLOBALS) globalThis[name] = name === "window" ? window : window[name];
  return window;
}
