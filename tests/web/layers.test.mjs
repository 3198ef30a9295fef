// The floors of web/ (tests/web/layers.mjs): the check finds what it is there to find.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cycles, FLOORS, importsOf, upwardImports } from "./layers.mjs";

describe("importsOf", () => {
  test("resolves static, dynamic and re-exporting imports against the importer's folder", () => {
    const files = {
      "main.js": 'import { a } from "./page/a.js";\nconst p = await import("./playground/p.js");',
      "page/a.js": 'export { b } from "../shared/b.js";',
      "shared/b.js": "export const b = 1;",
      "playground/p.js": "",
    };
    assert.deepEqual(importsOf(files), {
      "main.js": ["page/a.js", "playground/p.js"],
      "page/a.js": ["shared/b.js"],
      "shared/b.js": [],
      "playground/p.js": [],
    });
  });
});

describe("upwardImports", () => {
  test("downwards and within a room is fine", () => {
    assert.deepEqual(upwardImports({ "main.js": ["page/a.js"], "page/a.js": ["page/c.js", "shared/b.js"] }), []);
  });

  test("a shared module importing a feature runs up; one feature importing another runs sideways", () => {
    const graph = { "shared/b.js": ["playground/p.js"], "page/a.js": ["exercises/e.js"] };
    assert.deepEqual(upwardImports(graph), ["page/a.js -> exercises/e.js", "shared/b.js -> playground/p.js"]);
  });

  test("a folder on no floor is named", () => {
    assert.throws(() => upwardImports({ "attic/x.js": [] }), /web\/attic\/x\.js stands in no floor/);
  });

  test("the entry point is alone on the top floor", () => {
    assert.deepEqual(FLOORS[0], ["main.js"]);
  });
});

describe("cycles", () => {
  test("finds a circle of two and of three, each once", () => {
    assert.deepEqual(cycles({ "a.js": ["b.js"], "b.js": ["a.js"] }), [["a.js", "b.js"]]);
    assert.deepEqual(cycles({ "a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"] }), [["a.js", "b.js", "c.js"]]);
  });

  test("a graph without circles has none", () => {
    assert.deepEqual(cycles({ "a.js": ["b.js", "c.js"], "b.js": ["c.js"], "c.js": [] }), []);
  });
});
