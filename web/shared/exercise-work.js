// The reader's work on the exercises, kept in localStorage: their engine, piece by piece.
//
// One record per exercise, under "scratchgrad:exercise:<id>":
//   {code, stub, checked, passed, lastChecked}
//   code         what is in the editor now (saved on every edit)
//   stub         the stub the code was started from: when a new version of the site changes the
//                stub, the reader's code stays and the exercise can say that it changed
//   checked      true once Check has run on this exercise
//   passed       the last code that passed every check, or null: kept so the reader can put it back
//   lastChecked  the code of the latest Check, or null
// The one rule of "passed" lives here (passingCode): a piece passes while its latest checked code
// passes, checked on this page. Every place that counts pieces or runs the reader's engine asks it: the badge, the
// chapter line, the home page's count, "my engine", the Playground's engine=yours, and Export,
// which writes each piece's latest checked code so that `python -m scratchgrad.exercises list`,
// checking the file again, comes to the same verdicts.
// Code goes only when the reader asks (resetCode); nothing typed is lost to a reload or a
// new version of the site. Every change is announced with a WORK_CHANGED event on window (and
// other tabs hear it as a "storage" event), so progress shown elsewhere on the page follows.

// An exercise whose checks need torch (the package's exercises.registry.COMMAND_LINE_ONLY, written
// into the bundle by hooks/pyodide_runtime.py) is checked on the command line only: the page keeps
// and exports its code, but never calls it passed or tried, and counts it apart.
/* global EXERCISES_ON_THE_COMMAND_LINE */

import { keysStartingWith, readJSON, remove, writeJSON } from "./storage.js";

const PREFIX = "scratchgrad:exercise:";
export const WORK_CHANGED = "scratchgrad:exercise-work";
export const ON_THE_COMMAND_LINE = "checked on the command line";

/** Whether only the command line can check exercise `id` (its checks need torch). */
export function checkedOnTheCommandLine(id) {
  return EXERCISES_ON_THE_COMMAND_LINE.includes(id);
}

/**
 * The code the reader's engine runs for piece `id`, or null when the piece does not count:
 * their passing code while their latest Check was of that code. A failing Check of a passed
 * piece stops it counting (the book's piece runs instead) until a Check passes again. A piece
 * checked on the command line never counts here: the page cannot check it.
 */
export function passingCode(record, id) {
  if (checkedOnTheCommandLine(id)) return null;
  return record?.passed && record.lastChecked === record.passed ? record.passed : null;
}

/** "not started" | "tried" | "passed" | ON_THE_COMMAND_LINE, as the page says it. */
export function progressOf(record, id) {
  if (checkedOnTheCommandLine(id)) return ON_THE_COMMAND_LINE;
  if (passingCode(record, id) !== null) return "passed";
  if (record?.checked) return "tried";
  return "not started";
}

/** The reader's record for exercise `id`, or null. */
export function loadWork(id) {
  return validRecord(readJSON(PREFIX + id)); // none, no storage, or a record this code did not write
}

/** Merge `changes` into the record of `id`; false when the browser would not store it. */
export function saveWork(id, changes) {
  const record = { code: "", stub: "", checked: false, passed: null, lastChecked: null, ...loadWork(id), ...changes };
  if (!writeJSON(PREFIX + id, record)) return false; // private mode or a full quota: kept until the page closes
  announce(id);
  return true;
}

/**
 * Put the code of `id` back to `stub` (the reader asked). A piece that passed stays their piece,
 * so later exercises keep building on it; otherwise the record goes.
 */
export function resetCode(id, stub) {
  const record = loadWork(id);
  const done = record?.passed ? writeJSON(PREFIX + id, { ...record, code: stub, stub }) : remove(PREFIX + id);
  if (done) announce(id);
}

/** {id: record} of every exercise the reader has touched. */
export function allWork() {
  const work = {};
  for (const key of keysStartingWith(PREFIX)) {
    const record = loadWork(key.slice(PREFIX.length));
    if (record) work[key.slice(PREFIX.length)] = record;
  }
  return work;
}

/** {id: passing code} of every piece that counts (the Playground's engine=yours). */
export function allPassed() {
  return Object.fromEntries(
    Object.entries(allWork())
      .filter(([id, record]) => passingCode(record, id) !== null)
      .map(([id, record]) => [id, passingCode(record, id)]),
  );
}

/** {id: passing code} of the pieces in `ids` that count: "my engine", and the `earlier` of a check. */
export function passedPieces(ids) {
  const pieces = {};
  for (const id of ids) {
    const code = passingCode(loadWork(id), id);
    if (code !== null) pieces[id] = code;
  }
  return pieces;
}

/**
 * The code Export writes for a record: its latest checked code, the code the verdict is about
 * (edits not checked yet stay in the browser); the editor's code for a piece never checked.
 */
export function exportedCode(record) {
  return record.lastChecked ?? record.code;
}

function validRecord(record) {
  if (typeof record?.code !== "string" || typeof record?.stub !== "string") return null;
  const passed = typeof record.passed === "string" ? record.passed : null;
  return {
    code: record.code,
    stub: record.stub,
    checked: Boolean(record.checked),
    passed,
    // A record from before lastChecked was kept: its passed piece was the latest that counted.
    lastChecked: typeof record.lastChecked === "string" ? record.lastChecked : passed,
  };
}

function announce(id) {
  window.dispatchEvent(new CustomEvent(WORK_CHANGED, { detail: { id } }));
}
