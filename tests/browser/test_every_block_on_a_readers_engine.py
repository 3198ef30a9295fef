"""Every runnable block of every chapter, run on a reader's own engine, as a reader runs them.

A reader with every piece passed in a learner's own style (tests/learner_engine, through
tests/reader_work.py) opens each page fresh, with "my engine" on (the default once a piece passes),
and presses Run on each block in the order of a reader who never opens a collapsed admonition
(`pages.READING_ORDER`: the main text's blocks, then the collapsed ones, each after opening its
admonition). Nothing else: no "Run from top", no switch. The pages are those with a block that runs
on the reader's engine (`pages_for`); on the others every block runs on the book's engine whatever the
choice, and tests/browser/test_pages.py runs them, in the same order.

Proved, per page: no ``NameError`` anywhere (the runtime twin of tests/test_block_dependencies.py),
no exception but a block's ``expect=``, so no failed page check (a check is an ``assert``); and the
printed output equal to the book's engine's (the build's, CPython's run of the stage) wherever the
book's engine has the same rules as the reader's (`same_rules`), as `pages.same_as_the_books`
compares them.

The same walk with an ``=`` engine (the learner's, with `=` in their accumulate fix) must never
crash either; where the story teaches ``+=`` ("The += bug") it shows the lesson: the reused node's
lost share. A page's check that then fails (its rules are not the book's) must fail as the lesson,
naming the ``+=`` fix, never as a bare ``AssertionError``. It walks only the pages where its ``=``
runs (from "The += bug" on, `pieces_on`'s FIXES): before them it is the learner's engine.
"""

from __future__ import annotations

import pytest
from pages import (
    ARTIFACTS,
    READ_RESULT,
    READING_ORDER,
    exception_type,
    open_page,
    page_url,
    runnable_pages,
    runs_of,
    same_as_the_books,
    wait_for_runs,
)

from docs_pages import page_fences
from reader_work import EQUALS, LEARNER, STORE_AS_PASSED
from scratchgrad.page.reader_engine import describe

READERS = {"learner": LEARNER, "equals": EQUALS}
DIFFERS_FROM_THE_BOOKS = {"learner": set(), "equals": {"accumulate"}}
"""For each engine, the pieces whose rules are not the book's stage's: a block that runs on one of
them has rules of its own, and its numbers are the reader's (see `same_rules`)."""
POINTS_TO_THE_FIX = "+="
"""A page's check that fails on rules that are not the book's must say where the fix is: the ``+=``
of "The += bug" (``a rule still writes .grad = where the shares must add up (.grad +=)``)."""
REUSED_A = {"learner": "dL/da = -2 ", "equals": "dL/da = -3 "}
"""What "The += bug" prints for a reused node on each engine: the lesson, on the reader's own rules."""
BLOCKS = """() => [...document.querySelectorAll(".sg-runnable")].map((element, index) => ({
  index,
  browser: element.dataset.sgBrowser !== "no",
  expect: element.dataset.sgExpect ?? null,
  pieces: JSON.parse(element.dataset.sgEngine ?? "[]").map((piece) => piece.id),
  yours: element.classList.contains("sg-runnable--yours"),
  varies: element.dataset.sgOutput === "varies",
}))"""
COLLAPSED = """() => [...document.querySelectorAll(".sg-runnable")].flatMap(
  (element, index) => (element.closest("details:not([open])") ? [index] : []))"""
PRESS_RUN = """i => {
  const element = document.querySelectorAll(".sg-runnable")[i];
  element.closest("details:not([open])")?.setAttribute("open", "");
  const button = element.querySelector(":scope > .sg-toolbar > .sg-button--run");
  if (button && button.checkVisibility()) button.click();
  else scratchgrad.page.run(scratchgrad.page.blocks[i]);  // a hidden set-up block, or in another tab
}"""
"""Press the block's Run button, its admonition opened first if it is collapsed."""


def same_rules(block: dict, reader: str) -> bool:
    """Whether the book's engine, on this block, has the reader's rules: the block runs on the book's
    engine whatever the choice (no pieces), or on pieces none of which differs from the book's stage."""
    return not set(block["pieces"]) & DIFFERS_FROM_THE_BOOKS[reader]


def walk(context, site_url: str, source: str, reader: str) -> tuple[list[str], dict]:
    """Open `source` fresh and press Run on each block in reading order; the problems found, and what
    each block showed (index → result, with the build's output under "built")."""
    page = open_page(context, page_url(site_url, source))
    problems, shown = [], {}
    blocks = page.evaluate(BLOCKS)
    collapsed = page.evaluate(COLLAPSED)
    if any(b["pieces"] for b in blocks) and not page.get_by_role("radio", name="my engine").is_checked():
        problems.append('"my engine" is not the default of a reader with every piece passed')
    for b in (blocks[index] for index in page.evaluate(READING_ORDER)):
        if not b["browser"]:
            continue
        where = f"{source} block {b['index'] + 1}" + (" (collapsed)" if b["index"] in collapsed else "")
        built = page.evaluate(READ_RESULT, b["index"])
        print(where, flush=True)  # with -s: where a slow or stuck walk is
        runs = runs_of(page, b["index"])
        page.evaluate(PRESS_RUN, b["index"])
        wait_for_runs(page, b["index"], runs + 1)
        ran = page.evaluate(READ_RESULT, b["index"])
        shown[b["index"]] = {**ran, "built": built["printed"], "block": b}
        raised = exception_type(ran["error"]) if ran["error"] else None
        if raised == "AssertionError" and not same_rules(b, reader) and POINTS_TO_THE_FIX in ran["error"]:
            continue  # the page's check, failed on the reader's own rules, names the fix: the lesson
        if raised != b["expect"]:
            problems.append(f"{where}: raised {raised}, expected {b['expect']}:\n{ran['error']}")
            continue
        if not same_rules(b, reader) or ran["printed"] is None:
            continue
        if not b["varies"] and not same_as_the_books(ran["printed"], built["printed"]):
            problems.append(
                f"{where}: printed\n{ran['printed']}\nwhere the book's engine printed\n{built['printed']}"
            )
    page.close()
    return problems, shown


def pages_for(reader: str) -> list[str]:
    """The pages where the choice of engine changes what runs: for the learner, those with a block on
    the reader's engine; for another reader, those with a block on one of their pieces that differ from
    the learner's rules. (Elsewhere every block runs the book's engine, whatever the choice: the
    learner's walk, or tests/browser/test_pages.py, runs them.)"""
    return [
        source
        for source in runnable_pages()
        for differs in [DIFFERS_FROM_THE_BOOKS[reader]]
        if any(
            pieces and (not differs or differs & {piece["id"] for piece in pieces})
            for pieces in pieces_by_block(source)
        )
    ]


def pieces_by_block(source: str) -> list[list[dict[str, str]]]:
    """The reader's pieces each runnable block of `source` runs on, by the build's own rule."""
    codes = [fence.body for fence in page_fences(source) if fence.runnable]
    return [describe(source.removesuffix(".md"), codes[: at + 1]) for at in range(len(codes))]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_block_of_every_chapter_runs_on_a_readers_engine(context, site_url, reader):
    seeding = open_page(context, page_url(site_url, runnable_pages()[0]))
    seeding.evaluate(STORE_AS_PASSED, READERS[reader])
    seeding.close()
    problems, lessons = [], {}
    for source in pages_for(reader):
        found, shown = walk(context, site_url, source, reader)
        problems += found
        if source == "accumulating-gradients.md":
            lessons = shown
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"every-block-on-{reader}-engine.txt").write_text("\n\n".join(problems) or "no problems\n")
    assert problems == []
    # "On your own engine", y = a·b + a: a gets both shares, b + 1 = -2, or with = only the product's, -3
    assert any((shown["printed"] or "").startswith(REUSED_A[reader]) for shown in lessons.values())
