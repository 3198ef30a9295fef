// What the site keeps in the browser, and the default when the browser keeps nothing
// (web/shared/storage.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { JSDOM } from "jsdom";
import { keysStartingWith, readJSON, readText, remove, writeJSON, writeText } from "../../../web/shared/storage.js";

beforeEach(() => {
  globalThis.localStorage = new JSDOM("", { url: "https://example.org/" }).window.localStorage;
});

/** A browser that keeps nothing: every use of storage throws (a sandboxed frame, private mode). */
function noStorage() {
  const refuse = () => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  };
  globalThis.localStorage = new Proxy({}, { get: refuse });
}

describe("text and JSON", () => {
  test("come back as they were kept, under their own key", () => {
    assert.equal(writeText("scratchgrad:engine", "mine"), true);
    assert.equal(writeJSON("scratchgrad:edit:x#1", { code: "x = 2", original: "x = 1" }), true);
    assert.equal(readText("scratchgrad:engine"), "mine");
    assert.deepEqual(readJSON("scratchgrad:edit:x#1"), { code: "x = 2", original: "x = 1" });
    assert.equal(localStorage.getItem("scratchgrad:edit:x#1"), '{"code":"x = 2","original":"x = 1"}');
  });

  test("a key never kept, or removed, reads as the fallback", () => {
    assert.equal(readText("scratchgrad:engine"), null);
    assert.equal(readJSON("scratchgrad:engine", { none: true }).none, true);
    writeText("scratchgrad:engine", "book");
    assert.equal(remove("scratchgrad:engine"), true);
    assert.equal(readText("scratchgrad:engine", "the default"), "the default");
  });

  test("text this site did not write as JSON reads as the fallback, not an error", () => {
    localStorage.setItem("scratchgrad:exercise:slope", "not json {");
    assert.equal(readJSON("scratchgrad:exercise:slope"), null);
    assert.deepEqual(readJSON("scratchgrad:exercise:slope", []), []);
  });
});

describe("keysStartingWith", () => {
  test("lists the keys kept under a prefix, and no other", () => {
    writeText("scratchgrad:exercise:slope", "{}");
    writeText("scratchgrad:exercise:backward", "{}");
    writeText("scratchgrad:engine", "mine");
    assert.deepEqual(keysStartingWith("scratchgrad:exercise:").sort(), [
      "scratchgrad:exercise:backward",
      "scratchgrad:exercise:slope",
    ]);
    assert.deepEqual(keysStartingWith("scratchgrad-playground-drawn:"), []);
  });
});

describe("a browser that keeps nothing", () => {
  test("reads give the fallback, writes and removals say false, no key is listed", () => {
    noStorage();
    assert.equal(readText("scratchgrad:engine"), null);
    assert.equal(readText("scratchgrad:engine", "book"), "book");
    assert.equal(readJSON("scratchgrad:edit:x#1", "none"), "none");
    assert.equal(writeText("scratchgrad:engine", "mine"), false);
    assert.equal(writeJSON("scratchgrad:edit:x#1", { code: "" }), false);
    assert.equal(remove("scratchgrad:engine"), false);
    assert.deepEqual(keysStartingWith("scratchgrad:"), []);
  });

  test("a full quota refuses a write, and what was kept before stays readable", () => {
    writeText("scratchgrad:engine", "mine");
    const kept = localStorage;
    globalThis.localStorage = {
      getItem: (key) => kept.getItem(key),
      setItem() {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      },
    };
    assert.equal(writeText("scratchgrad:engine", "book"), false);
    assert.equal(readText("scratchgrad:engine"), "mine");
  });
});
