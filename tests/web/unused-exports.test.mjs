// The lint check that every export of web/ is imported somewhere (tests/web/unused-exports.mjs).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { unusedExports } from "./unused-exports.mjs";

describe("unusedExports", () => {
  test("lists an export that no file imports, and not one that some file does", () => {
    const files = {
      "web/page/a.js": 'import { used, other as renamed } from "../runtime/b.js";\nrenamed(used);',
      "web/runtime/b.js": "export const used = 1;\nexport function other() {}\nexport const DEAD_MS = 5;",
    };
    assert.deepEqual(unusedExports(files), ["web/runtime/b.js: DEAD_MS"]);
  });

  test("counts the names a dynamic import's importer uses, only those", () => {
    const files = {
      "web/page/main.js": 'const page = await import("./controller.js");\npage.PageController.enhance();',
      "web/page/controller.js": "export class PageController {}\nexport async function unused() {}",
    };
    assert.deepEqual(unusedExports(files), ["web/page/controller.js: unused"]);
  });

  test("resolves each import against its importer's folder", () => {
    const files = {
      "web/a/x.js": 'import { name } from "./y.js";',
      "web/a/y.js": "export const name = 1;",
      "web/b/y.js": "export const name = 2;",
    };
    assert.deepEqual(unusedExports(files), ["web/b/y.js: name"]);
  });
});
