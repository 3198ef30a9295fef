// The page's side of when search starts (web/search/search-gate.js), in jsdom with a fake channel.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { installDom } from "../dom.mjs";
import { letSearchStart } from "../../../web/search/search-gate.js";
import { MAY_SEARCH_START, SEARCH_MAY_START } from "../../../web/search/search-channel.js";

let channel;
let searchBox;

beforeEach(() => {
  installDom();
  document.body.innerHTML = `<input data-md-component="search-query"><button id="elsewhere">Run</button>`;
  searchBox = document.querySelector("input");
  channel = {
    posted: [],
    onmessage: null,
    postMessage(data) {
      this.posted.push(data);
    },
  };
});

/** A promise and the functions that settle it. */
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

test("search may start once the page's Python is ready, and the page says so once", async () => {
  const python = deferred();
  letSearchStart(python.promise, channel);
  channel.onmessage({ data: MAY_SEARCH_START }); // the worker asks before Python is ready
  await settled();
  assert.deepEqual(channel.posted, []);
  python.resolve();
  await settled();
  assert.deepEqual(channel.posted, [SEARCH_MAY_START]);
  searchBox.dispatchEvent(new window.FocusEvent("focusin", { bubbles: true }));
  assert.deepEqual(channel.posted, [SEARCH_MAY_START], "no second announcement");
});

test("a Python that failed to start lets search start too", async () => {
  const python = deferred();
  letSearchStart(python.promise, channel);
  python.reject(new Error("no WebAssembly"));
  await settled();
  assert.deepEqual(channel.posted, [SEARCH_MAY_START]);
});

test("the reader reaching for the search box lets search start at once; other focus does not", async () => {
  letSearchStart(deferred().promise, channel);
  document.querySelector("#elsewhere").dispatchEvent(new window.FocusEvent("focusin", { bubbles: true }));
  assert.deepEqual(channel.posted, []);
  searchBox.dispatchEvent(new window.FocusEvent("focusin", { bubbles: true }));
  assert.deepEqual(channel.posted, [SEARCH_MAY_START]);
});

test("a worker that asks after search may start gets the answer", async () => {
  letSearchStart(Promise.resolve(), channel);
  await settled();
  channel.onmessage({ data: MAY_SEARCH_START });
  channel.onmessage({ data: "something else" });
  assert.deepEqual(channel.posted, [SEARCH_MAY_START, SEARCH_MAY_START]);
});
