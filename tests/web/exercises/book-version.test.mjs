// The book's version after an exercise (web/exercises/book-version.js): closed until the reader's piece
// passes, one click away before that, and a click before passing is counted on the exercise.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { JSDOM } from "jsdom";
import { BookVersions } from "../../../web/exercises/book-version.js";

// The bundle's define (hooks/pyodide_runtime.py, from exercises.registry.COMMAND_LINE_ONLY).
globalThis.EXERCISES_ON_THE_COMMAND_LINE = ["torch-port"];

const PAGE = `
  <section class="sg-exercise" data-sg-exercise="slope"></section>
  <details data-sg-book-for="slope" class="sg-book"><summary>The book's version</summary><p>ours</p></details>`;

let window;
beforeEach(() => {
  ({ window } = new JSDOM(`<!doctype html><body>${PAGE}</body>`, { url: "https://scratchgrad.test/" }));
  globalThis.window = window;
  globalThis.document = window.document;
  globalThis.localStorage = window.localStorage;
  window.confirm = () => true; // the reader says yes when asked; a test that says no sets its own
});

const passed = (code) =>
  localStorage.setItem("scratchgrad:exercise:slope", JSON.stringify({ code, stub: "", checked: true, passed: code }));

describe("BookVersions", () => {
  test("is null on a page without a book's version", () => {
    document.body.replaceChildren();
    assert.equal(BookVersions.enhance(document), null);
  });

  test("stays closed and asks to be opened until the reader's piece passes, then opens once", () => {
    const books = BookVersions.enhance(document);
    const details = document.querySelector("details.sg-book");
    assert.equal(details.open, false);
    assert.equal(details.querySelector("summary").textContent, "Show the book's version");
    passed("def slope(f, x, h=1e-6): ...");
    books.update();
    assert.equal(details.open, true);
    assert.match(details.querySelector("summary").textContent, /compare it with yours/);
    details.open = false; // the reader closes it: a later update leaves it closed
    books.update();
    assert.equal(details.open, false);
  });

  test("opens at once for a piece that passed on an earlier visit", () => {
    passed("def slope(f, x, h=1e-6): ...");
    BookVersions.enhance(document);
    assert.equal(document.querySelector("details.sg-book").open, true);
  });

  test("counts a request made before the piece passes on the exercise, not one that closes it", () => {
    BookVersions.enhance(document);
    const summary = document.querySelector("details.sg-book > summary");
    const exercise = document.querySelector("[data-sg-exercise=slope]");
    summary.dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
    assert.equal(exercise.dataset.sgBookRequests, "1");
    document.querySelector("details.sg-book").open = true;
    summary.dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
    assert.equal(exercise.dataset.sgBookRequests, "1");
  });

  test("asks first before any Check, and a refusal keeps it closed and uncounted", () => {
    const questions = [];
    window.confirm = (question) => {
      questions.push(question);
      return false;
    };
    BookVersions.enhance(document);
    const details = document.querySelector("details.sg-book");
    const summary = details.querySelector("summary");
    const exercise = document.querySelector("[data-sg-exercise=slope]");
    const click = new window.MouseEvent("click", { bubbles: true, cancelable: true });
    summary.dispatchEvent(click);
    assert.equal(questions.length, 1);
    assert.match(questions[0], /not checked your code/);
    assert.equal(click.defaultPrevented, true);
    assert.equal(details.open, false);
    assert.equal(exercise.dataset.sgBookRequests, undefined);
  });

  test("does not ask once the reader has checked, but still counts the request", () => {
    let asked = false;
    window.confirm = () => {
      asked = true;
      return false;
    };
    localStorage.setItem(
      "scratchgrad:exercise:slope",
      JSON.stringify({ code: "x", stub: "", checked: true, passed: null }),
    );
    BookVersions.enhance(document);
    document
      .querySelector("details.sg-book > summary")
      .dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
    assert.equal(asked, false);
    assert.equal(document.querySelector("[data-sg-exercise=slope]").dataset.sgBookRequests, "1");
  });
});
