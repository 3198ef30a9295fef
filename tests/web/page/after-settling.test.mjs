// When a page has settled, for starting its Python (web/page/after-settling.js).

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { IDLE_TIMEOUT_MS, afterSettling } from "../../../web/page/after-settling.js";

/**
 * What `promise` has done once the tasks queued so far have run: "settled" or "waiting".
 *
 * Its own timer is cleared when the promise wins: a timer left pending would share Node's list
 * of timers of the same delay with the next call's, and a late event loop runs a list in one
 * go, so that call's timer would fire before a shorter timer queued after it (a CI run under
 * load saw "waiting" for a promise settled by a 1 ms timer).
 */
async function stateOf(promise) {
  let timer;
  const waited = new Promise((done) => (timer = setTimeout(done, 20)));
  const state = await Promise.race([promise.then(() => "settled"), waited.then(() => "waiting")]);
  clearTimeout(timer);
  return state;
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
