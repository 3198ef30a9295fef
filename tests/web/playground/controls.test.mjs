// The settings form built from Python's field descriptions (web/playground/controls.js).

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { SettingsForm } from "../../../web/playground/controls.js";
import { installDom } from "../dom.mjs";

const FIELDS = [
  {
    name: "dataset",
    label: "Data set",
    kind: "choice",
    choices: ["moons", "xor"],
    help: "Which points",
    clears: ["steps"],
  },
  { name: "lr", label: "Learning rate", kind: "float", help: "Step size" },
  { name: "hidden", label: "Hidden layers", kind: "text" },
  { name: "steps", label: "Batch", kind: "int" },
];

let changes;
let form;

beforeEach(() => {
  installDom();
  changes = 0;
  form = new SettingsForm(FIELDS, null, () => (changes += 1));
  document.body.append(form.element);
});

const control = (name) => form.element.querySelector(`[name="${name}"]`);

describe("SettingsForm", () => {
  test("gives every field a labelled control of its kind", () => {
    const labels = [...form.element.querySelectorAll("label")];
    assert.deepEqual(
      labels.map((label) => [label.textContent, document.getElementById(label.htmlFor).name]),
      [
        ["Data set", "dataset"],
        ["Learning rate", "lr"],
        ["Hidden layers", "hidden"],
        ["Batch", "steps"],
      ],
    );
    assert.deepEqual(
      [...control("dataset").options].map((option) => option.value),
      ["moons", "xor"],
    );
    assert.deepEqual(
      ["lr", "hidden", "steps"].map((name) => [control(name).type, control(name).inputMode]),
      [
        ["text", "decimal"],
        ["text", "text"],
        ["text", "numeric"],
      ],
    );
    assert.equal(control("lr").title, "Step size");
  });

  test("shows only the fields it is told to, and keeps the others' values", () => {
    const compact = new SettingsForm(FIELDS, ["lr"], () => {});
    assert.deepEqual(
      [...compact.element.querySelectorAll("input, select")].map((input) => input.name),
      ["lr"],
    );
    compact.fill("dataset=xor&lr=0.1");
    assert.equal(compact.query(), "dataset=xor&lr=0.1");
  });

  test("two forms never share an element id", () => {
    const other = new SettingsForm(FIELDS, null, () => {});
    assert.notEqual(other.element.querySelector("input").id, form.element.querySelector("input").id);
  });

  test("fills controls from a query string and writes one back, commas left readable", () => {
    form.fill("dataset=xor&hidden=16,16&lr=a b");
    assert.equal(control("dataset").value, "xor");
    assert.equal(control("hidden").value, "16,16");
    assert.equal(form.query(), "dataset=xor&hidden=16,16&lr=a%20b");
  });

  test("a change by the reader updates the query and is reported", () => {
    form.fill("lr=0.1");
    control("lr").value = "0.5";
    control("lr").dispatchEvent(new Event("change"));
    assert.equal(changes, 1);
    assert.equal(form.query(), "lr=0.5");
  });

  test("a change leaves the fields it clears out of the query, for Python to choose again", () => {
    form.fill("dataset=moons&lr=0.1&steps=20");
    control("dataset").value = "xor";
    control("dataset").dispatchEvent(new Event("change"));
    assert.equal(form.query(), "dataset=xor&lr=0.1");
  });

  test("puts each problem next to its control and returns those it cannot place", () => {
    const elsewhere = form.showProblems({ lr: "lr must be a number", seed: "seed must be whole" });
    assert.deepEqual(elsewhere, ["seed must be whole"]);
    const message = document.getElementById(control("lr").getAttribute("aria-describedby"));
    assert.equal(message.textContent, "lr must be a number");
    assert.equal(message.hidden, false);
    assert.equal(control("lr").getAttribute("aria-invalid"), "true");
    assert.equal(control("dataset").hasAttribute("aria-invalid"), false);

    form.showProblems({});
    assert.equal(message.hidden, true);
    assert.equal(control("lr").hasAttribute("aria-invalid"), false);
  });

  test("greys out the fields that change nothing, and gives back their help after", () => {
    form.markUnused(["lr"]);
    assert.ok(control("lr").closest(".sg-pg-field").classList.contains("sg-pg-field--unused"));
    assert.equal(control("lr").title, "Changes nothing with the current settings");
    form.markUnused([]);
    assert.ok(!control("lr").closest(".sg-pg-field").classList.contains("sg-pg-field--unused"));
    assert.equal(control("lr").title, "Step size");
  });

  test("disables and enables every control", () => {
    form.disabled = true;
    assert.ok([...form.element.querySelectorAll("input, select")].every((input) => input.disabled));
    form.disabled = false;
    assert.ok([...form.element.querySelectorAll("input, select")].every((input) => !input.disabled));
  });
});
