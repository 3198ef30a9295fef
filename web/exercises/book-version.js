// The book's version of a piece: the chapter's own code, in a collapsed block after its exercise.
//
// The build ties each <details class="sg-book"> to the exercise above it (hooks/exercises.py:
// data-sg-book-for). Closed, it is one click away for a reader who skips the exercise; it opens by
// itself once the reader's piece passes, so the page shows theirs first and ours second. Opening it
// before passing is a request, counted on the exercise in a data attribute (data-sg-book-requests)
// that tests and the reader's own tools can read. Before the reader has pressed Check at all it asks
// first, as "Show solution" (disabled until then) would: declined, the block stays closed.

import { checkedOnTheCommandLine, loadWork } from "../shared/exercise-work.js";

const ASK = "Show the book's version";
const COMPARE = "The book's version: compare it with yours";
const ASK_FIRST =
  "You have not checked your code for this piece yet. Show the book's version anyway? " +
  "It counts as a solution viewed.";

export class BookVersions {
  /** The book's versions in `root`, tied to their exercises; null when the page has none. */
  static enhance(root) {
    const books = [...root.querySelectorAll("details.sg-book[data-sg-book-for]")];
    return books.length ? new BookVersions(root, books) : null;
  }

  #books;

  constructor(root, books) {
    this.#books = books.map((details) => {
      const id = details.dataset.sgBookFor;
      const exercise = [...root.querySelectorAll("[data-sg-exercise]")].find((each) => each.dataset.sgExercise === id);
      const book = { details, id, exercise };
      book.summary = details.querySelector(":scope > summary");
      book.summary.addEventListener("click", (event) => this.#requested(book, event));
      return book;
    });
    this.update();
  }

  /** Open the book's version of every piece that passes (once: the reader may close it again). */
  update() {
    for (const book of this.#books) {
      // A piece checked on the command line never passes here (exercise-work.js): its version waits to be asked for.
      const passed = Boolean(loadWork(book.id)?.passed) && !checkedOnTheCommandLine(book.id);
      book.summary.textContent = passed ? COMPARE : ASK;
      book.details.dataset.sgBook = passed ? "passed" : "waiting";
      if (passed && !book.opened) {
        book.opened = true;
        book.details.open = true;
      }
    }
  }

  #requested(book, event) {
    if (book.details.open || book.details.dataset.sgBook === "passed" || !book.exercise) return;
    if (!loadWork(book.id)?.checked && !window.confirm(ASK_FIRST)) {
      event.preventDefault(); // declined: the book's version stays closed, and nothing is counted
      return;
    }
    const requests = Number(book.exercise.dataset.sgBookRequests ?? 0) + 1;
    book.exercise.dataset.sgBookRequests = String(requests);
  }
}
