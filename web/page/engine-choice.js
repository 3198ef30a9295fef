// "Run with: my engine | the book's engine": the page's blocks on the engine the reader wrote.
//
// Which blocks can run on the reader's engine, and which of their pieces each uses, is Python's
// rule (scratchgrad.page.reader_engine): the build marks those blocks with data-sg-engine, the
// pieces as JSON. This module only shows the choice, keeps it for the reader (localStorage, one
// choice for the whole site) and hands a run the reader's passing code when "my engine" is on;
// the worker builds the engine from it. "My engine" is the default from the reader's first
// passed piece; a reader who never wrote one starts on the book's. A piece that does not count
// (exercise-work.js: passingCode) runs as the book's, and the line under the choice names it, so
// the reader knows whose numbers they see.

import { allPassed, loadWork, passedPieces, WORK_CHANGED } from "../shared/exercise-work.js";
import { createElement } from "../shared/elements.js";
import { readText, writeText } from "../shared/storage.js";

const STORAGE_KEY = "scratchgrad:engine";
export const MINE = "mine";
export const BOOK = "book";

/**
 * The reader's choice, kept across pages and visits: MINE or BOOK. Until they choose, MINE once a
 * piece of theirs counts, else BOOK.
 */
export function loadChoice() {
  const kept = readText(STORAGE_KEY);
  if (kept === MINE || kept === BOOK) return kept;
  return Object.keys(allPassed()).length ? MINE : BOOK;
}

function saveChoice(choice) {
  writeText(STORAGE_KEY, choice); // no storage: the choice lasts as long as the page
}

/** The pieces (id, title, chapter) the `elements`' blocks use, each once, in page order. */
export function piecesOf(elements) {
  const pieces = new Map();
  for (const element of elements) {
    for (const piece of JSON.parse(element.dataset.sgEngine ?? "[]")) pieces.set(piece.id, piece);
  }
  return [...pieces.values()];
}

/**
 * What the line under the choice says: whose piece each one is, given the ids that count
 * (`passed`) and those passed once whose latest check failed (`failing`).
 */
export function describePieces(pieces, passed, choice, failing = new Set()) {
  if (choice === BOOK)
    return "The blocks that use the story's Value run on the book's engine: all its pieces are the book's.";
  const yours = pieces.filter((piece) => passed.has(piece.id));
  const broken = pieces.filter((piece) => failing.has(piece.id));
  const book = pieces.filter((piece) => !passed.has(piece.id) && !failing.has(piece.id));
  const titles = (list) => list.map((piece) => `“${piece.title}”`).join(", ");
  let text = yours.length
    ? `The blocks that use the story's Value run on your pieces: ${titles(yours)}.`
    : "You have passed none of the pieces these blocks use yet: they run on the book's.";
  if (yours.length && book.length) text += ` Not passed yet, so the book's: ${titles(book)}.`;
  if (broken.length) text += ` Your latest check failed, so the book's: ${titles(broken)}.`;
  return text;
}

export class EngineChoice {
  /** The control for the blocks among `elements` that can run on the reader's engine; null if none can. */
  static create(elements) {
    const blocks = elements.filter((element) => element.dataset.sgEngine);
    const pieces = piecesOf(blocks);
    return pieces.length ? new EngineChoice(pieces, blocks) : null;
  }

  #pieces;
  #blocks;
  #choice = loadChoice();
  #line;
  #announcer;
  // Work changed (here or in another tab): the default may now be "my engine", and the pieces' line changes.
  #onWork = () => {
    this.#choice = loadChoice();
    this.#show();
  };

  constructor(pieces, blocks = []) {
    this.#pieces = pieces;
    this.#blocks = blocks;
    this.element = createElement("fieldset", "sg-engine-choice");
    this.element.append(createElement("legend", "", {}, "Run with:"));
    for (const [value, text] of [
      [MINE, "my engine"],
      [BOOK, "the book's engine"],
    ]) {
      const label = document.createElement("label");
      const radio = Object.assign(document.createElement("input"), { type: "radio", name: "sg-engine", value });
      radio.addEventListener("change", () => this.#choose(value));
      label.append(radio, ` ${text}`);
      this.element.append(label);
    }
    this.#line = createElement("span", "sg-engine-choice__pieces");
    this.#announcer = createElement("span", "sg-visually-hidden", { role: "status" });
    this.element.append(this.#line, this.#announcer);
    this.#show();
    window.addEventListener(WORK_CHANGED, this.#onWork);
    window.addEventListener("storage", this.#onWork);
  }

  /** The options a run adds: the reader's passing code of the page's pieces when "my engine" is on. */
  runOptions() {
    if (this.#choice !== MINE) return {};
    return { yours: JSON.stringify(passedPieces(this.#pieces.map((piece) => piece.id))) };
  }

  dispose() {
    window.removeEventListener(WORK_CHANGED, this.#onWork);
    window.removeEventListener("storage", this.#onWork);
  }

  #choose(choice) {
    this.#choice = choice;
    saveChoice(choice);
    this.#show();
    const whose = choice === MINE ? "your engine" : "the book's engine";
    this.#announcer.textContent = `The next runs use ${whose}. ${this.#line.textContent} “Run from top” reruns the page on it.`;
  }

  /** The choice on the control, and on each block it reaches (the page marks them: runner.css). */
  #show() {
    this.element.dataset.sgChoice = this.#choice;
    for (const radio of this.element.querySelectorAll("input")) radio.checked = radio.value === this.#choice;
    for (const block of this.#blocks) block.classList.toggle("sg-runnable--yours", this.#choice === MINE);
    this.#describe();
  }

  #describe() {
    const ids = this.#pieces.map((piece) => piece.id);
    const passed = new Set(Object.keys(passedPieces(ids)));
    const failing = new Set(ids.filter((id) => !passed.has(id) && loadWork(id)?.passed));
    this.#line.textContent = describePieces(this.#pieces, passed, this.#choice, failing);
  }
}
