// Material's search held back until the page lets it start (web/search/held-search.js), with a
// worker's scope, a channel and Material's worker played by plain objects.

import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { holdSearch } from "../../../web/search/held-search.js";
import { MAY_SEARCH_START, SEARCH_MAY_START } from "../../../web/search/search-channel.js";

const DEADLINE_MS = 10_000;

/** A BroadcastChannel's one end: what this side posted, and a way to deliver the other side's message. */
function fakeChannel() {
  return {
    posted: [],
    closed: false,
    onmessage: null,
    postMessage(data) {
      this.posted.push(data);
    },
    close() {
      this.closed = true;
    },
    deliver(data) {
      this.onmessage?.({ data });
    },
  };
}

let scope;
let channel;
let material; // what Material's worker received, once it was loaded

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  scope = new EventTarget();
  channel = fakeChannel();
  material = null;
  holdSearch({
    scope,
    channel,
    deadlineMs: DEADLINE_MS,
    loadMaterial: () => {
      material = [];
      scope.addEventListener("message", (event) => material.push(event.data));
    },
  });
});

afterEach(() => mock.timers.reset());

const send = (data) => scope.dispatchEvent(new MessageEvent("message", { data }));

test("the worker asks the page as soon as it exists, and loads nothing of Material's yet", () => {
  assert.deepEqual(channel.posted, [MAY_SEARCH_START]);
  send({ type: 0, data: "the search index" });
  assert.equal(material, null);
});

test("once the page lets search start, Material's worker gets every held message, in order", () => {
  send({ type: 0, data: "the search index" });
  send({ type: 2, data: "chain" });
  channel.deliver(SEARCH_MAY_START);
  assert.deepEqual(material, [
    { type: 0, data: "the search index" },
    { type: 2, data: "chain" },
  ]);
  send({ type: 2, data: "rule" });
  assert.deepEqual(material.at(-1), { type: 2, data: "rule" }, "later messages go straight to Material");
  assert.equal(material.length, 3, "nothing is held twice");
  assert.ok(channel.closed);
});

test("other messages on the channel start nothing", () => {
  send({ type: 0, data: "the search index" });
  channel.deliver(MAY_SEARCH_START); // another tab's search worker asking
  channel.deliver("something else");
  assert.equal(material, null);
});

test("without an answer, search starts at the deadline, and only once", () => {
  send({ type: 0, data: "the search index" });
  mock.timers.tick(DEADLINE_MS - 1);
  assert.equal(material, null);
  mock.timers.tick(1);
  assert.deepEqual(material, [{ type: 0, data: "the search index" }]);
  channel.deliver(SEARCH_MAY_START); // a late answer
  assert.equal(material.length, 1);
});

test("a page's answer before the deadline means no second start at the deadline", () => {
  channel.deliver(SEARCH_MAY_START);
  send({ type: 0, data: "the search index" });
  mock.timers.tick(DEADLINE_MS);
  assert.deepEqual(material, [{ type: 0, data: "the search index" }]);
});
