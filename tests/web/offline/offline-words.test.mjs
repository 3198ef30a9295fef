// The footer's words for the offline state the service worker reports (web/offline/offline-words.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { describeOffline, isNewerThanPage, megabytes } from "../../../web/offline/offline-words.js";

const KEPT = { version: "abc", bytes: 28_400_000 };
const ON = { enabled: true, current: null, published: null, progress: null, failure: null };

test("megabytes are whole from 10 MB up, one decimal below", () => {
  assert.equal(megabytes(28_400_000), "28 MB");
  assert.equal(megabytes(420_000), "0.4 MB");
});

test("nothing is said before the worker reports, nor where the build keeps nothing offline", () => {
  assert.deepEqual(describeOffline(null), { text: "", action: null });
  assert.deepEqual(describeOffline({ ...ON, unavailable: true }), { text: "", action: null });
});

test("a kept site says so with its size, and offers to turn it off", () => {
  const { text, action } = describeOffline({ ...ON, current: KEPT });
  assert.equal(text, "Available offline · 28 MB");
  assert.deepEqual(action, { label: "Turn off", task: "forget" });
});

test("a first download shows its progress; an update's does not hide what is kept", () => {
  const progress = { done: 5_000_000, total: 28_400_000 };
  assert.equal(describeOffline({ ...ON, progress }).text, "Saving for offline reading… 5.0 MB of 28 MB");
  assert.equal(describeOffline({ ...ON, current: KEPT, progress }).text, "Available offline · 28 MB");
});

test("turned off, it offers to keep the site again; a failed download says why", () => {
  assert.deepEqual(describeOffline({ ...ON, enabled: false }).action, { label: "Keep it offline", task: "keep-again" });
  assert.match(describeOffline({ ...ON, failure: "offline.json: HTTP 500" }).text, /HTTP 500/);
});

test("a page is told of a newer build only when both its build and the published one are known", () => {
  assert.equal(isNewerThanPage({ ...ON, published: "new" }, "old"), true);
  assert.equal(isNewerThanPage({ ...ON, published: "old" }, "old"), false);
  assert.equal(isNewerThanPage({ ...ON, published: null }, "old"), false); // offline: nothing heard
  assert.equal(isNewerThanPage({ ...ON, published: "new" }, null), false); // a page with no list
  assert.equal(isNewerThanPage(null, "old"), false);
});
