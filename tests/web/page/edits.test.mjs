// The reader's edits of a block, kept in localStorage (web/page/edits.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { isUnedited, loadEdit, saveEdit } from "../../../web/page/edits.js";

/** A browser's localStorage, as much of it as edits.js uses. */
function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

beforeEach(() => {
  globalThis.localStorage = memoryStorage();
});

describe("isUnedited", () => {
  test("ignores spaces at line ends and blank lines at the end, nothing else", () => {
    assert.ok(isUnedited("x = 1  \ny = 2\n\n", "x = 1\ny = 2"));
    assert.equal(isUnedited("x = 1\n    y = 2", "x = 1\ny = 2"), false);
    assert.equal(isUnedited("x = 2", "x = 1"), false);
  });
});

describe("saveEdit and loadEdit", () => {
  test("keep the code with the original it was made from, per page and block", () => {
    assert.ok(saveEdit("chain-rule", 3, "x = 2", "x = 1"));
    assert.deepEqual(loadEdit("chain-rule", 3), { code: "x = 2", original: "x = 1" });
    assert.equal(loadEdit("chain-rule", 2), null);
    assert.equal(loadEdit("other-page", 3), null);
  });

  test("forget the record once the code says what the original says again", () => {
    saveEdit("chain-rule", 3, "x = 2", "x = 1");
    saveEdit("chain-rule", 3, "x = 1   \n", "x = 1");
    assert.equal(loadEdit("chain-rule", 3), null);
  });

  test("read a record they did not write as no edit", () => {
    localStorage.setItem("scratchgrad:edit:chain-rule#3", "not json");
    assert.equal(loadEdit("chain-rule", 3), null);
    localStorage.setItem("scratchgrad:edit:chain-rule#3", JSON.stringify({ code: 1 }));
    assert.equal(loadEdit("chain-rule", 3), null);
  });

  test("say false when the browser keeps nothing (private mode, a full quota)", () => {
    globalThis.localStorage = {
      setItem() {
        throw new Error("QuotaExceededError");
      },
    };
    assert.equal(saveEdit("chain-rule", 3, "x = 2", "x = 1"), false);
  });
});
