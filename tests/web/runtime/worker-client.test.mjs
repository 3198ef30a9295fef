// The page's side of every worker (web/runtime/worker-client.js), against a fake Worker that
// answers as the site's workers do (web/worker/serve-requests.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { WorkerClient } from "../../../web/runtime/worker-client.js";

/** A Worker that records what it is sent; a test answers for it with `reply`. */
class FakeWorker {
  static last = null;
  sent = [];
  terminated = false;
  constructor(url, options) {
    this.url = url;
    this.options = options;
    FakeWorker.last = this;
  }
  postMessage(message) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  reply(data) {
    this.onmessage({ data });
  }
  fail(message) {
    const event = { message, defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.onerror(event);
    return event;
  }
}

beforeEach(() => {
  globalThis.Worker = FakeWorker;
});

describe("WorkerClient", () => {
  test("starts a module worker and numbers each request", () => {
    const client = new WorkerClient("https://example.org/w.js", { name: "the test worker" });
    const worker = FakeWorker.last;
    assert.deepEqual(worker.options, { type: "module" });
    client.request("run", { code: "1" });
    client.request("stop");
    assert.deepEqual(worker.sent, [
      { id: 1, type: "run", code: "1" },
      { id: 2, type: "stop" },
    ]);
  });

  test("streams a request's other messages, then resolves with its done answer", async () => {
    const client = new WorkerClient("w.js", { name: "the test worker" });
    const streamed = [];
    const answer = client.request("run", {}, (message) => streamed.push(message.text));
    FakeWorker.last.reply({ id: 1, type: "output", text: "hi" });
    FakeWorker.last.reply({ id: 1, type: "done", value: 3 });
    assert.deepEqual(await answer, { id: 1, type: "done", value: 3 });
    assert.deepEqual(streamed, ["hi"]);
  });

  test("rejects on a failed answer, saying whether the worker is still usable", async () => {
    const client = new WorkerClient("w.js", { name: "the test worker" });
    const answer = client.request("run");
    FakeWorker.last.reply({ id: 1, type: "failed", message: "Python crashed", fatal: true });
    await assert.rejects(answer, { message: "Python crashed", fatal: true, workerDidNotRun: false });
  });

  test("hands a message without an id to onNotice, and an unknown id to nobody", () => {
    const notices = [];
    new WorkerClient("w.js", { name: "the test worker", onNotice: (message) => notices.push(message) });
    FakeWorker.last.reply({ type: "frame", step: 4 });
    FakeWorker.last.reply({ id: 9, type: "done" });
    assert.deepEqual(notices, [{ type: "frame", step: 4 }]);
  });

  test("fails every waiting request when the worker's script fails, then says so", async () => {
    const errors = [];
    const client = new WorkerClient("https://example.org/w.js", {
      name: "the test worker",
      onError: (message) => errors.push(message),
    });
    const answer = client.request("start");
    const event = FakeWorker.last.fail("");
    await assert.rejects(answer, {
      message: "the test worker could not run (https://example.org/w.js)",
      workerDidNotRun: true,
    });
    assert.deepEqual(errors, ["the test worker could not run (https://example.org/w.js)"]);
    assert.ok(event.defaultPrevented);
  });

  test("once terminated, fails what waits and refuses new requests", async () => {
    const client = new WorkerClient("w.js", { name: "the test worker" });
    const waiting = client.request("run");
    client.terminate();
    assert.ok(FakeWorker.last.terminated);
    await assert.rejects(waiting, { message: "the test worker was stopped" });
    await assert.rejects(client.request("run"), { message: "the test worker was stopped" });
  });
});
