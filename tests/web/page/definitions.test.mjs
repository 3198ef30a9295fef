// Does a block's code define a name (web/page/definitions.js): the hint after a NameError.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { definesName } from "../../../web/page/definitions.js";

describe("definesName", () => {
  test("finds each kind of binding a tutorial block makes", () => {
    assert.ok(definesName("def f(x):\n    return x", "f"));
    assert.ok(definesName("class Value:\n    pass", "Value"));
    assert.ok(definesName("async def fetch():\n    pass", "fetch"));
    assert.ok(definesName("a = 1", "a"));
    assert.ok(definesName("a, b = 1, 2", "b"));
    assert.ok(definesName("losses: list = []", "losses"));
    assert.ok(definesName("for step in range(3):\n    pass", "step"));
    assert.ok(definesName("with open(p) as handle:\n    pass", "handle"));
    assert.ok(definesName("import random", "random"));
    assert.ok(definesName("import numpy as np", "np"));
    assert.ok(definesName("from scratchgrad import Value, MLP", "MLP"));
  });

  test("does not take a use, a comparison or another name for a binding", () => {
    assert.equal(definesName("print(a)", "a"), false);
    assert.equal(definesName("a == 1", "a"), false);
    assert.equal(definesName("ab = 1", "a"), false);
    assert.equal(definesName("x = a", "a"), false);
  });

  test("answers false for text that is not a Python name, instead of building a broken pattern", () => {
    assert.equal(definesName("a = 1", "a("), false);
    assert.equal(definesName("a = 1", ""), false);
  });
});
