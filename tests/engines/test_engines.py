"""The site in Firefox ESR and in WebKit (Safari's engine), each as a reader meets it.

Per engine, from a fresh profile (conftest.py): every page loads with no error and, where it has
runnable blocks, Python starts; the first page of a first visit runs its blocks and prints what
the build printed; Stop ends ``while True: pass``, frees the CPU, says what it cost, and a block
runs afterwards; a reload brings back what the reader typed; the Playground trains; an
exercise's Check fails a known-wrong answer with the message that names its bug and passes the
reference solution. Chromium runs the full suites in tests/browser.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cpu import cores_busy
from harness import serve, stop
from pages import READ_RESULT, SERVICE_WORKER_CONTROLS, float_differences, page_url, runnable_pages
from slow_network import CutInsideAFormula, cut_inside_a_formula

from scratchgrad.exercises import by_id

LOAD_TIMEOUT_S = 240  # a cold Pyodide on two busy cores; WebKit is the slowest
RUN_TIMEOUT_S = 120
STATUS = "document.querySelector('.sg-status')?.dataset.status"
STATUS_TEXT = "document.querySelector('.sg-status').textContent"
PAGE_SHOWN = "document.readyState === 'complete' && typeof scratchgrad === 'object'"
BLOCK = "document.querySelectorAll('.sg-runnable')[{}]"
EXERCISE = "document.querySelector('[data-sg-exercise=\"{}\"]')"
FIRST_PAGE = runnable_pages()[0]
NEXT_PAGE = runnable_pages()[1]
BLOCKS_COMPARED = 3


def built_pages(site_dir: Path) -> list[str]:
    """Every page of the built site, as a path below its root ('' for home)."""
    return sorted(
        "" if path.parent == site_dir else path.parent.relative_to(site_dir).as_posix() + "/"
        for path in site_dir.rglob("index.html")
    )


def wait_until_python_is_ready(engine) -> None:
    """Wait for Python's start; fail with what the status line says."""
    engine.wait_for(f"['ready', 'failed'].includes({STATUS})", LOAD_TIMEOUT_S, "Python starting")
    assert engine.evaluate(STATUS) == "ready", engine.evaluate(STATUS_TEXT)


def runs_of(engine, index: int) -> int:
    return engine.evaluate(f"Number(document.querySelectorAll('.sg-runnable')[{index}].dataset.sgRuns ?? 0)")


def start_block(engine, index: int) -> int:
    """Press the block's Run button (or run it as the button would, if hidden); returns the runs before."""
    runs = runs_of(engine, index)
    engine.evaluate(f"""(() => {{
      const button = {BLOCK.format(index)}.querySelector(':scope > .sg-toolbar > .sg-button--run');
      if (button && button.offsetParent !== null) button.click();
      else scratchgrad.page.run(scratchgrad.page.blocks[{index}]);
    }})()""")
    return runs


def wait_for_run(engine, index: int, runs_before: int) -> dict:
    engine.wait_for(
        f"Number(document.querySelectorAll('.sg-runnable')[{index}].dataset.sgRuns ?? 0) > {runs_before}",
        RUN_TIMEOUT_S,
        f"block {index} finishing its run",
    )
    return engine.evaluate(f"({READ_RESULT})({index})")


def run_block(engine, index: int) -> dict:
    return wait_for_run(engine, index, start_block(engine, index))


def paste_code(engine, container: str, code: str) -> None:
    """Replace everything in the editor inside `container` (a JS expression) with `code`, as a
    paste over a full selection does.

    Through CodeMirror's own view (found from its DOM, as EditorView.findFromDOM does): neither
    WebDriver engine here offers Playwright's insert_text, and typed keys would be auto-indented.
    """
    # An editor is made when first needed (web/shared/editor.js): here by a press on the code that
    # stands in for it, as a reader's click (Firefox's WebDriver session gets no focus event), once
    # CodeMirror has loaded.
    engine.evaluate(f"""(() => {{
      const standIn = {container}.querySelector('[role=textbox]:not(.cm-content)');
      standIn?.scrollIntoView();
      const box = standIn?.getBoundingClientRect();
      const at = {{ clientX: box?.left + 8, clientY: box?.top + 8 }}; // on its first line, as a click
      standIn?.dispatchEvent(new MouseEvent('mousedown', {{ bubbles: true, cancelable: true, ...at }}));
    }})()""")
    engine.wait_for(f"{container}.querySelector('.cm-content') !== null", 30, "the editor, made by the press")
    engine.evaluate(f"""(() => {{
      const view = {container}.querySelector('.cm-content').cmTile.root.view;
      const everything = {{ from: 0, to: view.state.doc.length, insert: {json.dumps(code)} }};
      view.dispatch({{ changes: everything, userEvent: 'input.paste' }});
    }})()""")


def type_code(engine, index: int, code: str) -> None:
    """Replace the code of the page's block number `index`."""
    paste_code(engine, BLOCK.format(index), code)
    assert engine.evaluate(f"scratchgrad.page.blocks[{index}].code") == code


def check_exercise(engine, exercise_id: str, code: str) -> dict:
    """Put `code` in the exercise's editor, press Check, and read the verdict and the failed lines."""
    exercise = EXERCISE.format(exercise_id)
    paste_code(engine, exercise, code)
    checks = f"Number({exercise}.dataset.sgChecks ?? 0)"
    before = engine.evaluate(checks)
    engine.evaluate(f"{exercise}.querySelector('.sg-button--run').click()")
    engine.wait_for(f"{checks} > {before}", RUN_TIMEOUT_S, f"the checks of {exercise_id}")
    return engine.evaluate(f"""(() => ({{
      verdict: {exercise}.dataset.sgVerdict,
      failed: [...{exercise}.querySelectorAll('.sg-check:not(.sg-check--pass)')].map((l) => l.textContent),
      lines: {exercise}.querySelectorAll('.sg-check').length,
    }}))()""")


def test_every_page_loads_and_starts_python_without_errors(engine, site_url, site_dir):
    pages = built_pages(site_dir)
    assert len(pages) > 10
    for path in pages:
        engine.goto(site_url + path)
        engine.wait_for(PAGE_SHOWN, LOAD_TIMEOUT_S, f"/{path} loading")
        if engine.evaluate("document.querySelector('.sg-runnable') !== null"):
            wait_until_python_is_ready(engine)
        assert engine.errors() == [], f"{engine.name}: /{path}"


def follow_link(engine, path: str) -> None:
    """Click the navigation's link to `path` (below the site's root), then wait for that page.

    The click comes from a timer, after this call has returned: the page it was made in is gone
    by the time the engine would answer. Until the next page answers, evaluating may fail.
    """
    engine.evaluate(f"""(setTimeout(() => document.querySelector('a.md-nav__link[href$="{path}"]').click()),
      true)""")
    engine.wait_across_pages(f"location.pathname.endsWith('/{path}') && {PAGE_SHOWN}", LOAD_TIMEOUT_S,
                             f"the link to /{path} loading its page")  # fmt: skip


def open_as_a_returning_reader(engine, url: str) -> None:
    """Open `url` once the service worker is active, as every load after a reader's first page."""
    engine.goto(url)
    engine.wait_for(SERVICE_WORKER_CONTROLS, LOAD_TIMEOUT_S, "the service worker")
    engine.reload(LOAD_TIMEOUT_S)
    engine.wait_for(f"{PAGE_SHOWN} && crossOriginIsolated", LOAD_TIMEOUT_S, "the page, isolated")
    wait_until_python_is_ready(engine)


def test_a_first_visit_runs_the_first_pages_blocks_as_built_and_isolates_the_next(engine, site_url):
    engine.goto(page_url(site_url, FIRST_PAGE))
    wait_until_python_is_ready(engine)
    # Shown once, as it came: not isolated (web/service-worker/coi-serviceworker.js).
    assert engine.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    assert engine.evaluate("crossOriginIsolated") is False
    count = min(BLOCKS_COMPARED, engine.evaluate("document.querySelectorAll('.sg-runnable').length"))
    for index in range(count):
        built = engine.evaluate(f"({READ_RESULT})({index})")
        assert built["origin"] == "build"
        ran = run_block(engine, index)
        where = f"{engine.name}, {FIRST_PAGE} block {index}"
        assert ran["origin"] == "browser", where
        assert ran["error"] is None, f"{where}:\n{ran['error']}"
        assert float_differences(ran["printed"], built["printed"]) is not None, f"{where}: {ran['printed']!r}"
    engine.wait_for(SERVICE_WORKER_CONTROLS, LOAD_TIMEOUT_S, "the service worker")
    follow_link(engine, page_url("", NEXT_PAGE))
    assert engine.evaluate("crossOriginIsolated") is True, f"{engine.name}: the next page is not isolated"
    wait_until_python_is_ready(engine)
    assert run_block(engine, 0)["error"] is None


def test_stop_ends_an_endless_loop_frees_the_cpu_and_python_runs_again(engine, site_url):
    open_as_a_returning_reader(engine, page_url(site_url, FIRST_PAGE))
    interruptible = engine.evaluate("scratchgrad.runtime.interruptible")
    status_text = engine.evaluate(STATUS_TEXT)
    # The reader is told what Stop costs before pressing it.
    assert ("Stop restarts Python" in status_text) != interruptible, status_text
    type_code(engine, 0, "kept = 41\nwhile True:\n    pass\n")
    runs = start_block(engine, 0)
    engine.wait_for(f"{STATUS} === 'running'", RUN_TIMEOUT_S, "the loop running")
    time.sleep(1)  # past the first lines
    looping = cores_busy(engine.root_pid(), 2.0)
    stopped_at = time.monotonic()
    engine.evaluate(f"{BLOCK.format(0)}.querySelector('.sg-button--stop').click()")
    stopped = wait_for_run(engine, 0, runs)
    stop_s = time.monotonic() - stopped_at
    wait_until_python_is_ready(engine)  # a restart (no interrupt) loads Python anew: wait for it
    after = quietest(engine.root_pid(), looping / 2)
    print(f"{engine.name}: interruptible={interruptible}, stop {stop_s * 1000:.0f} ms, "
          f"cores busy looping {looping:.2f}, after Stop {after:.2f}")  # fmt: skip
    assert looping > 0.1, "the loop did not keep a core busy: the reading cannot tell anything"
    # A loop left spinning would get what the loop got (same machine, same moment), not half of it.
    assert after < looping / 2, f"{engine.name}: after Stop the browser still keeps {after:.2f} cores busy"
    notes = " ".join(stopped["notes"])
    assert ("Everything defined before the stop is still there" in notes) == interruptible, notes
    type_code(engine, 0, "print(kept + 1 if 'kept' in dir() else 'restarted')\n")
    ran = run_block(engine, 0)
    assert ran["printed"] == ("42\n" if interruptible else "restarted\n"), ran


def quietest(root_pid: int, enough: float, windows: int = 6) -> float:
    """The lowest CPU reading of a few 2 s windows, stopping once one is below `enough`.

    A new Python has start-up work left after "ready" (saving its snapshot, collecting garbage):
    it settles within a window or two. A loop still spinning never does.
    """
    readings = []
    for _ in range(windows):
        readings.append(cores_busy(root_pid, 2.0))
        if readings[-1] < enough:
            break
    return min(readings)


def test_a_reload_brings_back_what_the_reader_typed(engine, site_url):
    engine.goto(page_url(site_url, FIRST_PAGE))
    wait_until_python_is_ready(engine)
    typed = "print('typed by the reader')\n"
    type_code(engine, 0, typed)
    engine.reload(LOAD_TIMEOUT_S)
    engine.wait_for(f"{PAGE_SHOWN} && scratchgrad.page !== null", LOAD_TIMEOUT_S, "the page coming back")
    assert engine.evaluate("scratchgrad.page.blocks[0].code") == typed
    wait_until_python_is_ready(engine)
    assert run_block(engine, 0)["printed"] == "typed by the reader\n"


@pytest.mark.parametrize("steps", [30])
def test_the_playground_trains(engine, site_url, steps):
    panel = "document.querySelector('.sg-playground')"
    engine.goto(site_url + "playground/")
    settled = f"['paused', 'failed'].includes({panel}?.dataset.sgState)"
    engine.wait_for(settled, LOAD_TIMEOUT_S, "the playground loading")
    assert engine.evaluate(f"{panel}.dataset.sgState") == "paused", engine.errors()
    engine.evaluate(f"{panel}.querySelector('.sg-pg-play').click()")
    engine.wait_for(f"Number({panel}.dataset.sgSteps) >= {steps}", RUN_TIMEOUT_S, f"{steps} training steps")
    loss = engine.evaluate(f"Number({panel}.dataset.sgLoss)")
    assert 0 < loss < 10, loss


def test_an_exercise_checks_a_wrong_and_a_right_answer(engine, site_url):
    slope = by_id("slope")
    engine.goto(page_url(site_url, f"{slope.chapter}.md"))
    engine.wait_for(f"{EXERCISE.format(slope.id)}?.querySelector('.sg-editor') != null", LOAD_TIMEOUT_S,
                    "the exercise's editor")  # fmt: skip
    wrong = slope.wrong[0]
    result = check_exercise(engine, slope.id, slope.wrong_source(wrong.name))
    assert result["verdict"] == "fail", result
    assert any(wrong.message in line for line in result["failed"]), (wrong.bug, result)
    result = check_exercise(engine, slope.id, slope.solution)
    assert result == {"verdict": "pass", "failed": [], "lines": len(slope.checks)}, result


@pytest.mark.parametrize("running_engine", ["firefox"], indirect=True)  # the one that reports MathML errors
def test_a_page_cut_inside_a_formula_by_the_network_logs_no_error_and_keeps_its_mathml(engine, site_dir):
    """Firefox lays out a page while it arrives and reports a half-arrived MathML element as
    invalid markup in the reader's console (hooks/formulas.py keeps MathML out of layout until
    the page is parsed). Then every formula's MathML is back in layout, for screen readers."""
    page = next(
        path
        for path in built_pages(site_dir)
        if cut_inside_a_formula((site_dir / path / "index.html").read_bytes())
    )
    server = serve(CutInsideAFormula, directory=str(site_dir), extra_pages={}, compress=False)
    try:
        engine.goto(f"http://127.0.0.1:{server.server_port}/{page}")
        engine.wait_for(PAGE_SHOWN, LOAD_TIMEOUT_S, f"/{page} loading")
        assert engine.errors() == [], f"/{page}, cut inside its first formula"
        hidden = engine.evaluate("""[...document.querySelectorAll('.katex-mathml')]
          .filter((mathml) => getComputedStyle(mathml).display === 'none').length""")
        assert engine.evaluate("document.querySelectorAll('.katex-mathml').length") > 0
        assert hidden == 0, f"/{page}: {hidden} formulas keep their MathML out of layout after parsing"
    finally:
        stop(server)
