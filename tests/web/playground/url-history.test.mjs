// The full panel's settings in the page URL, and the Playground page's address
// (web/playground/url-history.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { installDomAt } from "../dom.mjs";

globalThis.PLAYGROUND_PAGE = "playground/"; // written into the bundle by hooks/pyodide_runtime.py
const { keptPointsMissing, playgroundURL, recordInURL, settingsInURL } =
  await import("../../../web/playground/url-history.js");

/** The page at `url`, with its location and history as the module's globals. */
function visit(url) {
  const window = installDomAt(url);
  globalThis.location = window.location;
  globalThis.history = window.history;
  globalThis.localStorage = window.localStorage;
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

describe("drawn points too many for a link", () => {
  const many = Array.from({ length: 200 }, (_, i) => `${(i / 100 - 1).toFixed(2)},0.50,${i % 2}`).join(";");
  const query = `dataset=drawn&drawn=${many}&hidden=4`;

  test("are kept in the page, the URL naming them; the page's settings have them back", () => {
    assert.equal(recordInURL(query, "push"), true);
    assert.match(location.search, /^\?dataset=drawn&drawn=kept-[0-9a-z]+&hidden=4$/);
    assert.ok(location.href.length < 200);
    assert.equal(settingsInURL(), query);
    assert.equal(keptPointsMissing(), false);
    const entries = history.length;
    assert.equal(recordInURL(query, "push"), true, "the same points: the same URL, no new entry");
    assert.equal(history.length, entries);
  });

  test("a short query stays whole in the URL", () => {
    assert.equal(recordInURL("dataset=drawn&drawn=0,0,0;1,1,1", "push"), false);
    assert.equal(settingsInURL(), "dataset=drawn&drawn=0,0,0;1,1,1");
  });

  test("a link whose kept points this browser lacks reads as no points, and says so", () => {
    recordInURL(query, "push");
    const link = location.href;
    localStorage.clear(); // another browser
    visit(link);
    assert.equal(keptPointsMissing(), true);
    assert.equal(settingsInURL(), "dataset=drawn&drawn=&hidden=4");
  });

  test("keeps only the newest sets of points", () => {
    for (let n = 0; n < 25; n += 1) recordInURL(`${query}&seed=${n}`.replace("0.50", `0.${10 + n}`), "push");
    const kept = Object.keys(localStorage).filter((key) => key.startsWith("scratchgrad-playground-drawn:"));
    assert.equal(kept.length, 20);
    assert.equal(keptPointsMissing(), false, "the newest is there");
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
