// When a page has settled, for starting its Python (web/page/after-settling.js).

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { IDLE_TIMEOUT_MS, afterSettling } from "../../../web/page/after-settling.js";

/** What `promise` has done after every task queued so far has run: "settled" or "waiting". */
async function stateOf(promise) {
  const settled = await Promise.race([promise.then(() => "settled"), new Promise((done) => setTimeout(done, 5))]);
  return settled ?? "waiting";
}

function deferred() {
  let resolve;
  const promise = new Promise((done) => (resolve = done));
  return { promise, resolve };
}

describe("afterSettling", () => {
  afterEach(() => delete globalThis.requestIdleCallback);

  test("waits for the page to be mounted, then for the browser's next idle moment", async () => {
    const idle = [];
    globalThis.requestIdleCallback = (callback, options) => idle.push({ callback, options });
    const mounted = deferred();
    const settled = afterSettling(mounted.promise);
    assert.equal(await stateOf(settled), "waiting");
    assert.equal(idle.length, 0, "asked for an idle moment before the page was mounted");
    mounted.resolve();
    assert.equal(await stateOf(settled), "waiting");
    assert.equal(idle.length, 1);
    assert.deepEqual(idle[0].options, { timeout: IDLE_TIMEOUT_MS }); // a busy page still gets its Python
    idle[0].callback();
    assert.equal(await stateOf(settled), "settled");
  });

  test("without requestIdleCallback (WebKit), waits for one task once mounted", async () => {
    const settled = afterSettling(Promise.resolve());
    assert.equal(await stateOf(settled), "settled");
  });

  test("a page that is never mounted never settles", async () => {
    globalThis.requestIdleCallback = (callback) => callback();
    assert.equal(await stateOf(afterSettling(new Promise(() => {}))), "waiting");
  });
});
