// The full panel's settings in the page URL, and the Playground page's address
// (web/playground/url-history.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { installDomAt } from "../dom.mjs";

globalThis.PLAYGROUND_PAGE = "playground/"; // written into the bundle by hooks/pyodide_runtime.py
const { playgroundURL, recordInURL, settingsInURL } = await import("../../../web/playground/url-history.js");

/** The page at `url`, with its location and history as the module's globals. */
function visit(url) {
  const window = installDomAt(url);
  globalThis.location = window.location;
  globalThis.history = window.history;
  return window;
}

beforeEach(() => visit("https://example.org/site/playground/#panel"));

describe("settingsInURL", () => {
  test("is the query string without its question mark, or empty", () => {
    assert.equal(settingsInURL(), "");
    visit("https://example.org/site/playground/?lr=0.1&seed=2");
    assert.equal(settingsInURL(), "lr=0.1&seed=2");
  });
});

describe("recordInURL", () => {
  test("pushes a history entry that keeps the path and the fragment", () => {
    const before = history.length;
    recordInURL("lr=0.1", "push");
    assert.equal(location.href, "https://example.org/site/playground/?lr=0.1#panel");
    assert.equal(history.length, before + 1);
  });

  test("replaces in place only a URL that already carries settings", () => {
    recordInURL("lr=0.1", "replace");
    assert.equal(settingsInURL(), "", "a plain visit keeps its plain URL");
    recordInURL("lr=0.1", "push");
    const entries = history.length;
    recordInURL("lr=0.2", "replace");
    assert.equal(settingsInURL(), "lr=0.2");
    assert.equal(history.length, entries);
  });

  test("leaves the URL alone for a compact panel, or when nothing changed", () => {
    recordInURL("lr=0.1", "none");
    assert.equal(settingsInURL(), "");
    recordInURL("lr=0.1", "push");
    const entries = history.length;
    recordInURL("lr=0.1", "push");
    assert.equal(history.length, entries);
  });
});

describe("playgroundURL", () => {
  test("is the playground page under the site root Material writes into the page", () => {
    visit("https://example.org/site/chain-rule/");
    const config = document.createElement("script");
    config.id = "__config";
    config.textContent = JSON.stringify({ base: ".." });
    document.body.append(config);
    assert.equal(playgroundURL(), "/site/playground/");
  });

  test("guesses this page's folder as the site root when the config is missing or unreadable", () => {
    visit("https://example.org/site/");
    assert.equal(playgroundURL(), "/site/playground/");
    const config = document.createElement("script");
    config.id = "__config";
    config.textContent = "{ not json";
    document.body.append(config);
    assert.equal(playgroundURL(), "/site/playground/");
  });
});
