"""One truth of "passed": a piece counts while its latest checked code passes, everywhere.

A reader with every piece passed breaks their backward rules (chain rule) and presses Check. The
exercise's badge, the home page's count, what "my engine" hands a run, the exported file as
`python -m scratchgrad.exercises list` reads it, and the line under "Run with" then all leave the
piece out; one click puts the passing version back and every place counts it again. The rule has
one owner, web/shared/exercise-work.js (passingCode); this test proves its readers agree.
"""

from __future__ import annotations

import re
import subprocess
import sys

from pages import LOAD_TIMEOUT_MS, editor_in, page_url, read_text
from test_exercises import exercise, open_exercise, press_check, shown, type_code

from reader_work import SOLUTIONS
from scratchgrad.exercises import by_id
from scratchgrad.exercises.registry import COMMAND_LINE_ONLY, ENGINE_PIECES

PIECE = "local-derivatives"
APART = COMMAND_LINE_ONLY[0].id
"""The exercise the page cannot check (torch-port): its record below claims a pass no place believes."""
BROKEN = by_id(PIECE).wrong_source(by_id(PIECE).wrong[0].name)
"""A product rule that gives each factor its own value: a failing check."""
RECORDS = """work => {
  for (const [id, code] of Object.entries(work)) {
    const record = {code, stub: "", checked: true, passed: code, lastChecked: code};
    localStorage.setItem("scratchgrad:exercise:" + id, JSON.stringify(record));
  }
}"""
RECORD_RUNS = """() => {
  const runtime = scratchgrad.runtime;
  const run = runtime.run.bind(runtime);
  window.sgYours = [];
  runtime.run = (code, options = {}) => {
    if (options.yours !== undefined) window.sgYours.push(JSON.parse(options.yours));
    return run(code, options);
  };
}"""


def engine_pieces_of_a_run(page) -> set[str]:
    """The pieces "my engine" hands the next run of the page's first block that uses them."""
    page.evaluate(RECORD_RUNS)
    page.evaluate(
        "() => { const b = scratchgrad.page.blocks.find((b) => b.element.dataset.sgEngine);"
        " scratchgrad.page.run(b); }"
    )
    page.wait_for_function("() => window.sgYours.length > 0", timeout=LOAD_TIMEOUT_MS)
    return set(page.evaluate("() => Object.keys(window.sgYours[0])"))


def home_count(page, site_url: str, piece: str = PIECE) -> tuple[int, str]:
    page.goto(site_url)
    summary = page.locator(".sg-engine[data-sg-passed]")  # the build writes it empty; the page fills it in
    summary.wait_for(timeout=LOAD_TIMEOUT_MS)
    return int(summary.get_attribute("data-sg-passed")), read_text(
        summary.locator(f'[data-sg-piece="{piece}"] .sg-progress')
    )


def cli_list(page, tmp_path, piece: str = PIECE) -> tuple[int, str]:
    """Export my engine, then `python -m scratchgrad.exercises list` on it: (count, the piece's line)."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Export my engine").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    listed = subprocess.run(
        [sys.executable, "-m", "scratchgrad.exercises", "list", str(exported)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    count = int(re.search(r"your engine: (\d+) of", listed)[1])
    line = next(line for line in listed.splitlines() if line.startswith(piece + " "))
    return count, line


def test_a_broken_passed_piece_stops_counting_everywhere_and_one_click_brings_it_back(
    context, site_url, tmp_path
):
    total = len(ENGINE_PIECES)
    page = open_exercise(context, site_url, PIECE)
    page.evaluate(RECORDS, SOLUTIONS)
    page.reload()
    editor_in(exercise(page, PIECE)).wait_for(timeout=LOAD_TIMEOUT_MS)
    # The reader has pieces of their own: "my engine" is on without being asked for.
    assert page.get_by_role("radio", name="my engine").is_checked()
    assert PIECE in engine_pieces_of_a_run(page)
    assert APART not in engine_pieces_of_a_run(page)

    type_code(page, PIECE, BROKEN)
    assert press_check(page, PIECE)["verdict"] == "fail"
    assert shown(page, PIECE)["progress"] == "tried"
    broken_note = exercise(page, PIECE).locator(".sg-note", has_text="no longer counts")
    assert broken_note.is_visible()
    line = read_text(page.locator(".sg-engine-choice__pieces"))
    assert f"Your latest check failed, so the book's: “{by_id(PIECE).title}”" in line
    assert PIECE not in engine_pieces_of_a_run(page)

    assert home_count(page, site_url) == (total - 1, "tried")
    count, listed = cli_list(page, tmp_path)
    assert count == total - 1
    assert "tried" in listed, listed

    page.goto(page_url(site_url, f"{by_id(PIECE).chapter}.md"))
    editor_in(exercise(page, PIECE)).wait_for(timeout=LOAD_TIMEOUT_MS)
    checks = int(exercise(page, PIECE).get_attribute("data-sg-checks") or 0)
    broken_note.get_by_role("button", name="Put back my passing version and check it").click()
    page.wait_for_function(
        "([id, n]) => Number(document.querySelector(`[data-sg-exercise='${id}']`).dataset.sgChecks ?? 0) > n",
        arg=[PIECE, checks],
        timeout=60_000,
    )
    put_back = shown(page, PIECE)
    assert put_back["progress"] == "passed", put_back
    assert not broken_note.is_visible()
    assert PIECE in engine_pieces_of_a_run(page)
    assert home_count(page, site_url) == (total, "passed")
    count, listed = cli_list(page, tmp_path)
    assert (count, listed.split()[-1]) == (total, "passed")


def test_a_reader_who_never_wrote_code_starts_on_the_books_engine(context, site_url):
    page = open_exercise(context, site_url, PIECE)
    assert page.get_by_role("radio", name="the book's engine").is_checked()
    assert "run on the book's engine" in read_text(page.locator(".sg-engine-choice__pieces"))


def test_a_piece_checked_on_the_command_line_is_counted_apart_in_every_place(context, site_url, tmp_path):
    """torch-port's record claims a pass: the page never believes one (it cannot check torch), the
    home page lists it apart from "k of N", "my engine" leaves it out (the Playground's yours asks
    the same rule: tests/web/shared/exercise-work.test.mjs), Export
    writes its code, and the command line, which can check it, says passed and counts it apart."""
    page = open_exercise(context, site_url, PIECE)
    page.evaluate(RECORDS, SOLUTIONS)
    page.reload()
    editor_in(exercise(page, PIECE)).wait_for(timeout=LOAD_TIMEOUT_MS)
    assert APART not in engine_pieces_of_a_run(page)
    assert home_count(page, site_url, APART) == (len(ENGINE_PIECES), "checked on the command line")
    listed = read_text(page.locator(".sg-engine__summary"))
    assert f"Your engine: {len(ENGINE_PIECES)} of {len(ENGINE_PIECES)} pieces" in listed
    count, line = cli_list(page, tmp_path, APART)
    assert count == len(ENGINE_PIECES)
    assert line.endswith("passed"), line

    page.goto(page_url(site_url, f"{by_id(APART).chapter}.md"))
    editor_in(exercise(page, APART)).wait_for(timeout=LOAD_TIMEOUT_MS)
    assert shown(page, APART)["progress"] == "checked on the command line"
    assert exercise(page, APART).get_by_role("button", name="Check", exact=True).count() == 0
    line = read_text(page.locator(".sg-chapter-progress"))
    assert line == "Your turn in this chapter: 1 exercise, checked on the command line."
