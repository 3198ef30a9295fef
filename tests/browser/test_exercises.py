"""The "Your turn" exercises as a reader uses them: type code, Check, read the lines and the verdict.

Checks run in the page's Python worker (scratchgrad.exercises in Pyodide). The solutions typed
here come from the package (its reference solutions and known-wrong variants), or are a reader's
own different but correct version, so a test proves what any correct code gets, not one text.
"""

from __future__ import annotations

import re

import pytest
from pages import ARTIFACTS, LOAD_TIMEOUT_MS, editor_in, open_page, page_url, read_text

from scratchgrad.exercises import by_id
from scratchgrad.exercises.registry import ENGINE_PIECES

CHECK_TIMEOUT_MS = 60_000
SLOPE_BY_A_READER = '''def slope(f, x, h=1e-6):
    """Rise over run, written my own way."""
    before, after = f(x), f(x + h)
    return (after - before) / h
'''
RUNAWAY_SLOPE = "def slope(f, x, h=1e-6):\n    while True:\n        pass\n"


def exercise(page, exercise_id: str):
    return page.locator(f'[data-sg-exercise="{exercise_id}"]')


def button(page, exercise_id: str, name: str):
    return exercise(page, exercise_id).get_by_role("button", name=name, exact=True)


def open_exercise(context, site_url: str, exercise_id: str, color_scheme: str | None = None):
    chapter = page_url(site_url, f"{by_id(exercise_id).chapter}.md")
    page = open_page(context, chapter, color_scheme=color_scheme)
    editor_in(exercise(page, exercise_id)).wait_for()
    return page


def type_code(page, exercise_id: str, code: str) -> None:
    """Select everything in the exercise's editor and type `code` in its place."""
    editor_in(exercise(page, exercise_id)).click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)


def checks_done(page, exercise_id: str) -> int:
    return int(exercise(page, exercise_id).get_attribute("data-sg-checks") or 0)


def press_check(page, exercise_id: str, timeout: int = CHECK_TIMEOUT_MS) -> dict:
    """Press Check as the reader would, wait for the verdict, and read what the exercise shows."""
    done = checks_done(page, exercise_id)
    button(page, exercise_id, "Check").click()
    page.wait_for_function(
        "([id, n]) => Number(document.querySelector(`[data-sg-exercise='${id}']`).dataset.sgChecks ?? 0) > n",
        arg=[exercise_id, done],
        timeout=timeout,
    )
    return shown(page, exercise_id)


def shown(page, exercise_id: str) -> dict:
    return page.evaluate(
        """id => {
          const block = document.querySelector(`[data-sg-exercise='${id}']`);
          const report = block.querySelector(".sg-exercise__report");
          return {
            verdict: block.dataset.sgVerdict ?? null,
            progress: block.querySelector(".sg-exercise__state").textContent,
            checks: [...report.querySelectorAll(".sg-check")].map((line) => ({
              passed: line.classList.contains("sg-check--pass"), text: line.textContent })),
            verdictLine: report.querySelector(".sg-verdict")?.textContent ?? "",
            pieces: report.querySelector(".sg-pieces")?.textContent ?? "",
          };
        }""",
        exercise_id,
    )


def editor_code(page, exercise_id: str) -> str:
    return page.evaluate(
        "id => scratchgrad.exercises.blocks.find((block) => block.id === id).code", exercise_id
    )


def test_a_readers_own_correct_slope_passes_every_check(context, site_url):
    page = open_exercise(context, site_url, "slope")
    assert shown(page, "slope")["progress"] == "not started"
    result = press_check(page, "slope")  # the stub as it stands
    assert result["verdict"] == "fail"
    assert result["progress"] == "tried"
    type_code(page, "slope", SLOPE_BY_A_READER)
    result = press_check(page, "slope")
    assert result["verdict"] == "pass", result
    assert len(result["checks"]) == len(by_id("slope").checks)
    assert all(line["passed"] for line in result["checks"])
    assert result["progress"] == "passed"
    assert result["verdictLine"].startswith("Passed")


@pytest.mark.parametrize("exercise_id", ["value-graph", "backward"])
def test_the_reference_solution_typed_in_passes(context, site_url, exercise_id):
    page = open_exercise(context, site_url, exercise_id)
    type_code(page, exercise_id, by_id(exercise_id).solution)
    result = press_check(page, exercise_id)
    assert result["verdict"] == "pass", result
    assert [line["passed"] for line in result["checks"]] == [True] * len(by_id(exercise_id).checks)


def test_a_known_wrong_solution_fails_with_the_message_that_names_the_bug(context, site_url):
    slope = by_id("slope")
    page = open_exercise(context, site_url, "slope")
    for wrong in slope.wrong:
        type_code(page, "slope", slope.wrong_source(wrong.name))
        result = press_check(page, "slope")
        assert result["verdict"] == "fail"
        failed = [line["text"] for line in result["checks"] if not line["passed"]]
        assert any(wrong.message in text for text in failed), (wrong.bug, failed)
        assert result["verdictLine"].startswith("Not yet")


def test_a_later_exercise_builds_on_the_readers_passed_piece_and_says_so(context, site_url):
    page = open_exercise(context, site_url, "value-graph")
    type_code(page, "value-graph", by_id("value-graph").solution)
    assert press_check(page, "value-graph")["verdict"] == "pass"
    page.goto(page_url(site_url, f"{by_id('backward').chapter}.md"))
    editor_in(exercise(page, "backward")).wait_for()
    builds_on = exercise(page, "backward").locator(".sg-exercise__builds-on").inner_text()
    title = by_id("value-graph").title
    assert f"{title} (yours)" in builds_on
    assert f"{by_id('topological-order').title} (ours)" in builds_on
    type_code(page, "backward", by_id("backward").solution)
    result = press_check(page, "backward")
    assert result["verdict"] == "pass", result
    assert f"{title} — yours" in result["pieces"]
    assert f"{by_id('topological-order').title} — ours" in result["pieces"]


def test_hints_come_one_at_a_time_and_the_solution_after_a_check(context, site_url):
    slope = by_id("slope")
    page = open_exercise(context, site_url, "slope")
    hints = exercise(page, "slope").locator(".sg-exercise__hint")
    assert hints.evaluate_all("all => all.filter((hint) => !hint.hidden).length") == 0
    for shown_hints in range(1, len(slope.hints) + 1):
        button(page, "slope", "Hint").click()
        assert hints.evaluate_all("all => all.filter((hint) => !hint.hidden).length") == shown_hints
    assert button(page, "slope", "Hint").is_disabled()
    solution = exercise(page, "slope").locator(".sg-exercise__solution")
    assert button(page, "slope", "Show solution").is_disabled()
    assert not solution.is_visible()
    press_check(page, "slope")
    button(page, "slope", "Show solution").click()
    assert solution.is_visible()
    assert solution.locator("code").text_content().strip() == slope.solution.strip()


def book_version(page, exercise_id: str):
    return page.locator(f'details.sg-book[data-sg-book-for="{exercise_id}"]')


def test_the_books_version_waits_below_the_exercise_and_opens_when_the_readers_piece_passes(
    context, site_url
):
    page = open_exercise(context, site_url, "slope")
    book = book_version(page, "slope")
    assert book.evaluate(
        "(details, section) => section.compareDocumentPosition(details) & 4",
        exercise(page, "slope").element_handle(),
    )
    assert not book.evaluate("details => details.open")
    assert book.locator("summary").text_content() == "Show the book's version"
    press_check(page, "slope")  # the stub fails: the book's version stays closed
    assert not book.evaluate("details => details.open")
    type_code(page, "slope", SLOPE_BY_A_READER)
    assert press_check(page, "slope")["verdict"] == "pass"
    page.wait_for_function("() => document.querySelector('details.sg-book[data-sg-book-for=slope]').open")
    assert "def slope(f, x, h=1e-6):" in book.text_content()  # the book's solution, from src/
    assert book.locator("summary").text_content().startswith("The book's version")


def test_asking_for_the_books_version_before_passing_is_counted(context, site_url):
    page = open_exercise(context, site_url, "value-graph")
    book = book_version(page, "value-graph")
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    book.locator("summary").click()  # before any Check it asks first; declined, it stays closed
    assert len(questions) == 1
    assert "not checked your code" in questions[0]
    assert not book.evaluate("details => details.open")
    assert exercise(page, "value-graph").get_attribute("data-sg-book-requests") is None
    page.once("dialog", lambda dialog: dialog.accept())
    book.locator("summary").click()
    assert book.evaluate("details => details.open")
    assert exercise(page, "value-graph").get_attribute("data-sg-book-requests") == "1"
    assert "--8<--" not in book.text_content()
    assert "def __add__" in book.text_content()


def test_reset_code_puts_the_stub_back(context, site_url):
    page = open_exercise(context, site_url, "slope")
    type_code(page, "slope", SLOPE_BY_A_READER)
    button(page, "slope", "Reset code").click()
    assert editor_code(page, "slope") == by_id("slope").stub


def test_code_and_progress_survive_a_reload_and_show_on_the_home_page(context, site_url):
    page = open_exercise(context, site_url, "slope")
    type_code(page, "slope", SLOPE_BY_A_READER)
    assert press_check(page, "slope")["verdict"] == "pass"
    typed_later = SLOPE_BY_A_READER + "\n# still working on it\n"
    type_code(page, "slope", typed_later)
    page.reload()
    editor_in(exercise(page, "slope")).wait_for()
    assert editor_code(page, "slope") == typed_later
    assert shown(page, "slope")["progress"] == "passed"
    assert "1 passed" in read_text(page.locator(".sg-chapter-progress"))
    page.goto(site_url)
    summary = page.locator(".sg-engine")
    summary.locator('.sg-progress[data-progress="passed"]').wait_for(timeout=LOAD_TIMEOUT_MS)
    engine_line = read_text(summary.locator(".sg-engine__summary"))
    assert f"Your engine: 1 of {len(ENGINE_PIECES)} pieces" in engine_line
    assert read_text(summary.locator('[data-sg-piece="slope"] .sg-progress')) == "passed"


def test_a_runaway_loop_is_stopped_by_the_time_limit_with_a_clear_verdict(context, site_url):
    page = open_exercise(context, site_url, "slope")
    type_code(page, "slope", RUNAWAY_SLOPE)
    result = press_check(page, "slope")
    assert result["verdict"] == "fail"
    assert "ran longer than" in result["verdictLine"], result
    type_code(page, "slope", SLOPE_BY_A_READER)  # the worker still checks code afterwards
    assert press_check(page, "slope")["verdict"] == "pass"


def test_stop_ends_a_runaway_check_at_once(context, site_url):
    page = open_exercise(context, site_url, "slope")
    # A first check imports the checker's modules (kept for later checks): on a busy machine the
    # Stop below would otherwise land in those imports instead of in the reader's loop.
    type_code(page, "slope", SLOPE_BY_A_READER)
    assert press_check(page, "slope")["verdict"] == "pass"
    type_code(page, "slope", RUNAWAY_SLOPE)
    done = checks_done(page, "slope")
    button(page, "slope", "Check").click()
    page.wait_for_selector('[data-sg-exercise="slope"] .sg-exercise__state[data-busy="running"]')
    page.wait_for_timeout(500)  # well inside the loop
    button(page, "slope", "Stop").click()
    page.wait_for_function(
        "n => Number(document.querySelector(`[data-sg-exercise='slope']`).dataset.sgChecks ?? 0) > n",
        arg=done,
        timeout=5_000,
    )
    result = shown(page, "slope")
    assert result["verdict"] == "fail"
    assert "stopped" in result["verdictLine"].lower(), result


def test_export_then_import_brings_back_the_code_and_the_progress(context, site_url, tmp_path):
    page = open_exercise(context, site_url, "slope")
    type_code(page, "slope", SLOPE_BY_A_READER)
    assert press_check(page, "slope")["verdict"] == "pass"
    started_backward = "# my backward, not done yet\n"
    page.evaluate(
        """code => localStorage.setItem("scratchgrad:exercise:backward",
             JSON.stringify({code, stub: "", checked: false, passed: null}))""",
        started_backward,
    )
    page.goto(site_url)
    with page.expect_download() as download:
        page.get_by_role("button", name="Export my engine").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.name == "my_scratchgrad_engine.py"
    text = exported.read_text()
    assert "# %% exercise: slope" in text
    assert "# %% exercise: backward" in text

    page.evaluate("localStorage.clear()")
    page.reload()
    page.locator(".sg-engine__actions").wait_for(timeout=LOAD_TIMEOUT_MS)
    assert page.locator(".sg-engine").get_attribute("data-sg-passed") == "0"
    page.locator("#sg-engine-import").set_input_files(str(exported))
    page.wait_for_function(
        "() => /Imported|Could not/.test(document.querySelector('.sg-engine__said').textContent)",
        timeout=CHECK_TIMEOUT_MS,
    )
    assert read_text(page.locator(".sg-engine__said")) == (
        f"Imported 2 pieces from {exported.name}; 1 pass their checks."
    )
    assert page.locator(".sg-engine").get_attribute("data-sg-passed") == "1"
    assert read_text(page.locator('[data-sg-piece="slope"] .sg-progress')) == "passed"
    page.goto(page_url(site_url, f"{by_id('slope').chapter}.md"))
    editor_in(exercise(page, "slope")).wait_for()
    assert editor_code(page, "slope") == SLOPE_BY_A_READER
    assert shown(page, "slope")["progress"] == "passed"


def test_a_file_that_is_not_an_engine_is_refused_with_a_reason(context, site_url, tmp_path):
    page = open_page(context, site_url)
    page.locator(".sg-engine__actions").wait_for()
    not_engine = tmp_path / "notes.py"
    not_engine.write_text("print('hello')\n")
    page.locator("#sg-engine-import").set_input_files(str(not_engine))
    page.wait_for_function(
        "() => /Imported|Could not/.test(document.querySelector('.sg-engine__said').textContent)",
        timeout=CHECK_TIMEOUT_MS,
    )
    said = read_text(page.locator(".sg-engine__said"))
    assert said.startswith("Could not import notes.py: line 1 is code before the first"), said


LOOKS = [
    pytest.param(width, scheme, id=f"{width}px-{scheme}")
    for width in (1280, 390)
    for scheme in ("light", "dark")
]


@pytest.mark.parametrize(("width", "scheme"), LOOKS)
def test_a_failing_and_a_passing_check_fit_the_screen(context, site_url, width, scheme):
    """Screenshots for a person to look at (test-artifacts/browser/), and no sideways scrolling."""
    page = open_exercise(context, site_url, "slope", color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    slope = by_id("slope")
    section = exercise(page, "slope")
    type_code(page, "slope", slope.wrong_source(slope.wrong[0].name))
    assert press_check(page, "slope")["verdict"] == "fail"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=ARTIFACTS / f"exercise-fail-{width}px-{scheme}.png")
    type_code(page, "slope", SLOPE_BY_A_READER)
    assert press_check(page, "slope")["verdict"] == "pass"
    section.screenshot(path=ARTIFACTS / f"exercise-pass-{width}px-{scheme}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = section.bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width


def test_a_deliberately_wrong_backward_draws_the_graph_with_exactly_that_node_wrong(context, site_url):
    exp_rule = by_id("power-and-exp")
    page = open_exercise(context, site_url, "power-and-exp")
    type_code(page, "power-and-exp", exp_rule.wrong_source("exp-rule"))  # d exp(a)/da = a, not exp(a)
    result = press_check(page, "power-and-exp")
    failed = [line["text"] for line in result["checks"] if not line["passed"]]
    # exp(x), exp(x) ** 2 · x, exp's share (a rule, drawn without a graph), and the random x and k
    assert len(failed) == 4
    assert "your rule for exp (your code for 'power-and-exp')" in failed[2]
    seed = re.search(r"\(seed \d+\)", result["verdictLine"])  # to check the same cases again
    assert seed, result["verdictLine"]
    assert "Node by node, against central differences: x: expected 1.648721, got 0.5." in failed[0]
    blamed = "The first wrong gradient is x's: your rule for exp (your code for 'power-and-exp', line "
    assert blamed in failed[0]
    figures = exercise(page, "power-and-exp").locator(".sg-check--fail .sg-check-graph")
    assert figures.count() == 3  # the random x and k are drawn too
    verdicts = "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.dataset.sgCheck]))"
    assert figures.nth(0).locator("g.node[data-sg-check]").evaluate_all(verdicts) == {
        "x": "wrong",
        "out": "ok",
    }
    combined = figures.nth(1).locator("g.node[data-sg-check]").evaluate_all(verdicts)
    assert [node for node, verdict in combined.items() if verdict == "wrong"] == ["x"]
    label = figures.nth(0).locator('g.node[data-sg-node="x"] .sg-check-label').text_content()
    assert label == "✗ expected 1.648721, got 0.5"
    stepper = figures.nth(0).get_by_role("button", name="Step through backward")
    stepper.click()
    figures.nth(0).get_by_role("button", name="Next step").click()
    assert "x.grad += out.data × out.grad" in figures.nth(0).locator(".sg-step-text").inner_text()
    for width, scheme in ((1280, "default"), (1280, "slate"), (390, "default")):
        page.set_viewport_size({"width": width, "height": 1000})
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        exercise(page, "power-and-exp").locator(".sg-exercise__report").screenshot(
            path=str(ARTIFACTS / f"exercise-check-graph-{width}-{scheme}.png")
        )


def test_a_check_stuck_inside_one_c_call_restarts_python_and_keeps_the_code(context, site_url):
    stuck = "import itertools\n\n\ndef slope(f, x, h=1e-6):\n    return sum(itertools.repeat(0))\n"
    page = open_exercise(context, site_url, "slope")
    type_code(page, "slope", stuck)
    result = press_check(page, "slope")
    assert result["verdict"] == "fail"
    assert "Stopped by restarting Python" in result["verdictLine"], result
    assert editor_code(page, "slope") == stuck
    type_code(page, "slope", SLOPE_BY_A_READER)  # a fresh worker checks code afterwards
    assert press_check(page, "slope")["verdict"] == "pass"


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light")])
def test_a_command_line_exercise_keeps_the_code_shows_the_commands_and_asks_before_the_solution(
    context, site_url, width, scheme
):
    """torch-port: no Check (the page's Python has no torch), the two commands instead, the code kept
    for Export, the solution only after asking; screenshots for a person to look at."""
    page = open_exercise(context, site_url, "torch-port", color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    section = exercise(page, "torch-port")
    assert section.get_by_role("button", name="Check", exact=True).count() == 0
    assert shown(page, "torch-port")["progress"] == "checked on the command line"
    commands = read_text(section.locator(".sg-exercise__command-line pre"))
    assert (
        commands
        == "pip install torch\npython -m scratchgrad.exercises check torch-port my_scratchgrad_engine.py"
    )
    type_code(page, "torch-port", by_id("torch-port").solution)
    kept = "JSON.parse(localStorage.getItem('scratchgrad:exercise:torch-port') ?? '{}').code ?? ''"
    page.wait_for_function(f"() => ({kept}).includes('def train_in_torch')")
    page.once("dialog", lambda dialog: dialog.dismiss())
    button(page, "torch-port", "Show solution").click()
    assert section.locator(".sg-exercise__solution").is_hidden()
    assert section.get_attribute("data-sg-solution-views") is None
    page.once("dialog", lambda dialog: dialog.accept())
    button(page, "torch-port", "Show solution").click()
    assert section.locator(".sg-exercise__solution").is_visible()
    assert section.get_attribute("data-sg-solution-views") == "1"
    button(page, "torch-port", "Hide solution").click()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=ARTIFACTS / f"exercise-command-line-{width}px-{scheme}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.reload()
    editor_in(section).wait_for(timeout=LOAD_TIMEOUT_MS)
    assert shown(page, "torch-port")["progress"] == "checked on the command line"
