"""The runner as a reader uses it: Stop, edits that survive, Restart, failures, keyboard, safety.

Each test types its own code into the first runnable block of a page (the reader's edit), so it
does not depend on what a chapter says. The `context` fixture fails any test whose pages logged
a console error or asked another host for anything.
"""

from __future__ import annotations

import random
import time

import pytest
from pages import (
    BLOCK_TIMEOUT_MS,
    LOAD_TIMEOUT_MS,
    SERVICE_WORKER_CONTROLS,
    WITHOUT_ISOLATION,
    block,
    block_result,
    editor_text,
    open_page,
    page_url,
    replace_code,
    run_code,
    runnable_pages,
    runs_of,
    wait_for_runs,
    wait_until_ready,
)

FIRST_PAGE = runnable_pages()[0]
RUNAWAY = "kept = 42\nwhile True:\n    pass\n"


@pytest.fixture
def page(context, site_url):
    return open_page(context, page_url(site_url, FIRST_PAGE))


def start_runaway(page) -> int:
    """Start `while True: pass` in block 0; return the run count to wait past."""
    replace_code(page, 0, RUNAWAY)
    runs = runs_of(page, 0)
    block(page, 0).locator(".sg-button--run").click()
    page.wait_for_selector('.sg-runnable[data-sg-state="running"]')
    page.wait_for_timeout(300)  # well inside the loop
    return runs


def stop_and_time(page, runs: int) -> float:
    started = time.monotonic()
    block(page, 0).locator(".sg-button--stop").click()
    wait_for_runs(page, 0, runs + 1, timeout=5_000)
    return time.monotonic() - started


@pytest.mark.timing
def test_stop_interrupts_a_runaway_loop_within_a_second_and_keeps_the_namespace(page):
    assert page.evaluate("crossOriginIsolated")
    runs = start_runaway(page)
    assert stop_and_time(page, runs) < 1.0
    stopped = block_result(page, 0)
    assert stopped["error"].splitlines()[-1] == "KeyboardInterrupt"
    assert stopped["notes"] == ["Stopped. Everything defined before the stop is still there."]
    assert run_code(page, "print(kept)")["printed"] == "42\n"


@pytest.mark.timing
@pytest.mark.fresh_context
def test_without_isolation_stop_restarts_python_and_says_the_namespace_is_gone(context, site_url):
    context.add_init_script(WITHOUT_ISOLATION)
    site_page = open_page(context, page_url(site_url, FIRST_PAGE), isolated=False)
    assert site_page.evaluate("crossOriginIsolated") is False
    browser_cannot = "Stop restarts Python here: this browser cannot interrupt it."
    assert browser_cannot in site_page.text_content(".sg-status")
    runs = start_runaway(site_page)
    assert stop_and_time(site_page, runs) < 1.0
    [note] = block_result(site_page, 0)["notes"]
    assert "Stopped by restarting Python (this browser cannot interrupt it)" in note
    wait_until_ready(site_page)
    after = run_code(site_page, "print(kept)")
    assert after["error"].splitlines()[-1] == "NameError: name 'kept' is not defined"


REGISTERING_FAILS = (
    "if (self.ServiceWorkerContainer) Object.defineProperty(ServiceWorkerContainer.prototype, 'register',"
    " { value: () => Promise.reject(new Error('no service workers in this window')) });"
)
"""An init script: registering the service worker fails (as in a window that allows none)."""

NEVER_ACTIVATES = """
if (self.ServiceWorkerContainer) {
  Object.defineProperty(ServiceWorkerContainer.prototype, "register", { value: () => Promise.resolve({}) });
  Object.defineProperty(ServiceWorkerContainer.prototype, "ready", { get: () => new Promise(() => {}) });
}
"""
"""An init script: registering seems to succeed, but no service worker ever becomes active."""

NEXT_PAGE = runnable_pages()[1]
SHOWING = "name => document.querySelector('.sg-runnable')?.dataset.sgPage === name"


def follow_nav_link(page, source: str) -> None:
    """Click the navigation's link to the chapter `source`, as a reader would."""
    page.locator(f'a.md-nav__link[href$="{page_url("", source)}"]:visible').first.click()


@pytest.mark.fresh_context
def test_a_first_visit_shows_its_page_once_and_the_next_link_loads_an_isolated_page(context, site_url):
    site_page = context.new_page()
    workers = python_workers_started(site_page)
    site_page.goto(page_url(site_url, FIRST_PAGE))
    wait_until_ready(site_page)
    assert site_page.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    assert site_page.evaluate("crossOriginIsolated") is False
    # Said before any Stop, and why: not the browser's fault.
    first_page = "Stop restarts Python here: it cannot be interrupted on the first page of a visit."
    assert first_page in site_page.text_content(".sg-status")
    assert run_code(site_page, "print(6 * 7)\n")["printed"] == "42\n"
    assert [url for url in workers if url.endswith("/python-worker.js")] == [
        f"{site_url}javascripts/python-worker.js"
    ]
    stop_and_time(site_page, start_runaway(site_page))
    [note] = block_result(site_page, 0)["notes"]
    assert "Stopped by restarting Python (it cannot be interrupted on the first page of a visit)" in note
    wait_until_ready(site_page)
    site_page.wait_for_function(SERVICE_WORKER_CONTROLS, timeout=LOAD_TIMEOUT_MS)
    site_page.evaluate("window.sameDocument = true")
    section = site_page.locator(".md-sidebar--secondary a.md-nav__link:visible").first
    section.click()  # a link within the page scrolls, as before
    site_page.wait_for_function("href => location.href === href", arg=section.evaluate("link => link.href"))
    assert site_page.evaluate("window.sameDocument") is True
    follow_nav_link(site_page, NEXT_PAGE)  # the next page comes in full, through the service worker
    site_page.wait_for_function("window.crossOriginIsolated === true", timeout=LOAD_TIMEOUT_MS)
    assert site_page.evaluate("window.sameDocument") is None
    wait_until_ready(site_page)
    assert "Stop restarts Python here" not in site_page.text_content(".sg-status")
    site_page.evaluate("window.sameDocument = true")
    follow_nav_link(site_page, FIRST_PAGE)  # and from there, Material's instant navigation
    site_page.wait_for_function(SHOWING, arg=FIRST_PAGE.removesuffix(".md"))
    assert site_page.evaluate("window.sameDocument") is True


@pytest.mark.fresh_context
@pytest.mark.parametrize("no_worker", [REGISTERING_FAILS, NEVER_ACTIVATES], ids=["fails", "never-active"])
def test_without_an_active_service_worker_pages_run_and_links_stay_instant(context, site_url, no_worker):
    context.add_init_script(no_worker)
    site_page = open_page(context, page_url(site_url, FIRST_PAGE), isolated=False)
    assert site_page.evaluate("crossOriginIsolated") is False
    assert run_code(site_page, "print(6 * 7)\n")["printed"] == "42\n"
    site_page.evaluate("window.sameDocument = true")
    follow_nav_link(site_page, NEXT_PAGE)
    site_page.wait_for_function(SHOWING, arg=NEXT_PAGE.removesuffix(".md"))
    assert site_page.evaluate("window.sameDocument") is True


KILLS_PYODIDE = """\
class Link:
    __slots__ = ("next",)

head = None
for _ in range(100_000):
    link = Link()
    link.next = head
    head = link
del link
head = None  # freeing the chain recurses in C: Pyodide's WebAssembly stack overflows
"""


def test_a_crash_of_python_itself_restarts_it_and_says_so(page, watch):
    run_code(page, "before_the_crash = 1\n")
    crashed = run_code(page, KILLS_PYODIDE)
    assert crashed["notes"] == [
        "Python crashed: Maximum call stack size exceeded. "
        "Python was restarted: the variables of the blocks above are gone."
    ]
    wait_until_ready(page)
    after = run_code(page, "print(before_the_crash)\n")
    assert after["error"].splitlines()[-1] == "NameError: name 'before_the_crash' is not defined"
    assert any("Pyodide has suffered a fatal error" in error for error in watch.errors)
    watch.errors.clear()  # Pyodide's own report of the crash this test caused on purpose


def test_edits_survive_a_reload_and_reset_code_restores_the_original(page):
    original = editor_text(page, 0)
    replace_code(page, 0, "print('mine')\n")
    edited_badge = block(page, 0).locator(".sg-edited")
    assert edited_badge.is_visible()
    page.reload()
    wait_until_ready(page)
    assert editor_text(page, 0) == "print('mine')\n"
    assert edited_badge.is_visible()
    block(page, 0).locator(".sg-button--reset").click()
    assert editor_text(page, 0) == original
    assert edited_badge.is_hidden()
    page.reload()
    wait_until_ready(page)
    assert editor_text(page, 0) == original


def test_edits_survive_stop(page):
    runs = start_runaway(page)
    stop_and_time(page, runs)
    assert editor_text(page, 0) == RUNAWAY


def test_restart_python_empties_the_namespace_and_seeds_random_again(page):
    run_code(page, "x = 1\nimport random\nrandom.random()\n")
    restart_python(page)
    after = run_code(page, "import random\nprint(random.random())\nprint(x)\n")
    random.seed(0)
    assert after["printed"] == f"{random.random()}\n"
    assert after["error"].splitlines()[-1] == "NameError: name 'x' is not defined"


def test_restart_python_undoes_a_patched_package(page):
    patch = "from scratchgrad import Value\nValue.__add__ = lambda self, other: 'patched'\n"
    check = "from scratchgrad import Value\nprint((Value(1.0) + Value(2.0)).data)\n"
    run_code(page, patch)
    assert run_code(page, "print(Value(1.0) + Value(2.0))\n")["printed"] == "patched\n"
    restart_python(page)
    assert run_code(page, check)["printed"] == "3.0\n"


def restart_python(page) -> None:
    page.locator(".sg-button--restart").click()
    page.wait_for_function("document.querySelector('.sg-status').textContent.startsWith('Python restarted')")


def test_blocks_share_one_namespace_in_the_order_the_reader_runs_them(page):
    if page.locator(".sg-runnable .sg-button--run").count() < 2:
        pytest.fail(f"{FIRST_PAGE} needs two runnable blocks for this test")
    run_code(page, "shared = 'from block 0'\n", index=0)
    assert run_code(page, "print(shared)\n", index=1)["printed"] == "from block 0\n"


def test_run_from_top_runs_every_block_down_to_this_one(page):
    target = 2
    runs_before = [runs_of(page, index) for index in range(target + 2)]
    block(page, target).locator(".sg-button--from-top").click()
    wait_for_runs(page, target, runs_before[target] + 1)
    runs_after = [runs_of(page, index) for index in range(target + 2)]
    assert runs_after == [runs + 1 for runs in runs_before[: target + 1]] + [runs_before[target + 1]]


@pytest.mark.fresh_context(permissions=["clipboard-read", "clipboard-write"])
def test_copy_puts_the_readers_code_on_the_clipboard(page):
    replace_code(page, 0, "print('copied')\n")
    copy = block(page, 0).locator(".sg-button--copy")
    copy.click()
    page.wait_for_function("b => b.textContent === 'Copied'", arg=copy.element_handle())
    assert page.evaluate("navigator.clipboard.readText()") == "print('copied')\n"


def test_printed_markup_stays_text(page):
    result = run_code(page, "print('<b>bold</b><img src=x onerror=alert(1)>')\n")
    assert result["printed"] == "<b>bold</b><img src=x onerror=alert(1)>\n"
    assert block(page, 0).locator(".sg-output b, .sg-output img").count() == 0


def test_show_graph_draws_an_svg_whose_labels_are_text(page):
    label = '<script>alert(1)</script><a href="javascript:alert(2)">x</a>'
    code = f"from scratchgrad import Value\nv = Value(2.0, label={label!r})\nshow_graph(v * 3)\n"
    result = run_code(page, code)
    assert result["error"] is None
    [graph] = result["graphs"]
    assert label in graph["texts"]
    assert graph["edges"] == 2
    figure = block(page, 0).locator(".sg-graph")
    assert figure.locator("svg").count() == 1
    assert figure.locator("script, a, foreignObject, [onload], [onclick]").count() == 0


def test_traceback_shows_the_readers_code_only(page):
    result = run_code(page, "def f(n):\n    return 1 / n\n\nf(0)\n")
    lines = result["error"].splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "<{FIRST_PAGE.removesuffix(".md")} block 1>", line 4, in <module>'
    assert lines[-1] == "ZeroDivisionError: division by zero"
    assert "_pyodide" not in result["error"]
    assert "blocks.py" not in result["error"]  # the runner's own frames (page/blocks.py) are trimmed


def test_keyboard_only_ctrl_enter_runs_and_escape_tab_leaves_the_editor(page):
    replace_code(page, 0, "print('from the keyboard')\n")
    runs = runs_of(page, 0)
    page.keyboard.press("Control+Enter")
    wait_for_runs(page, 0, runs + 1)
    assert block_result(page, 0)["printed"] == "from the keyboard\n"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('sg-button--run')")
    page.keyboard.press("Enter")
    wait_for_runs(page, 0, runs + 2)


def hold_back_material(context, seconds: float) -> None:
    """Material's bundle arrives `seconds` late, as on a slow network: Material mounts the page then."""

    def slow_bundle(route):
        time.sleep(seconds)
        route.continue_()

    context.route("**/assets/javascripts/bundle.*.min.js", slow_bundle)


def python_workers_started(page) -> list[str]:
    """The addresses of the Python workers `page` creates from now on, whichever document it shows."""
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    return workers


MATERIAL_BUNDLE_ARRIVED_AT = (
    "performance.getEntriesByType('resource').find((r) => r.name.includes('/bundle.'))?.responseEnd"
)
"""When Material's bundle had arrived (ms since the page started): it mounts the page after that."""


@pytest.mark.fresh_context
def test_a_chapter_starts_python_once_material_has_mounted_it_in_one_worker(context, site_url):
    """web/page/after-settling.js: Python's boot does not compete with the page's own loading."""
    context.add_init_script(WITHOUT_ISOLATION)  # no service worker: the routes see every request
    hold_back_material(context, 1.0)
    site_page = context.new_page()
    workers = python_workers_started(site_page)
    site_page.goto(page_url(site_url, FIRST_PAGE))
    wait_until_ready(site_page)
    launched_ms = site_page.evaluate("scratchgrad.runtime.timings.launchedAt")
    bundle_ms = site_page.evaluate(MATERIAL_BUNDLE_ARRIVED_AT)
    assert bundle_ms is not None, "Material's bundle was not loaded"
    assert launched_ms > bundle_ms, (
        f"Python started at {launched_ms:.0f} ms, before Material's bundle ({bundle_ms:.0f} ms)"
    )
    python_workers = [url for url in workers if url.endswith("/python-worker.js")]
    assert python_workers == [f"{site_url}javascripts/python-worker.js"], "a second Python worker was started"
    assert run_code(site_page, "print(6 * 7)\n")["printed"] == "42\n"


@pytest.mark.fresh_context
def test_a_reader_who_runs_a_block_before_the_page_settles_starts_python_at_once(context, site_url):
    context.add_init_script(WITHOUT_ISOLATION)
    held = []
    context.route("**/assets/javascripts/bundle.*.min.js", lambda route: held.append(route))  # never answered
    site_page = context.new_page()
    site_page.goto(page_url(site_url, FIRST_PAGE), wait_until="commit")
    site_page.wait_for_function("globalThis.scratchgrad?.page")  # the blocks are ready for the reader
    assert site_page.evaluate("scratchgrad.runtime.status") == "idle", (
        "Python started before the page settled"
    )
    assert run_code(site_page, "print(6 * 7)\n")["printed"] == "42\n"
    assert site_page.evaluate("typeof document$") == "undefined", "Material mounted: the test proves nothing"


def test_instant_navigation_keeps_python_loaded_and_gives_each_page_its_namespace(page):
    others = [source for source in runnable_pages() if source != FIRST_PAGE]
    if not others:
        pytest.fail("instant navigation needs a second page with runnable blocks")
    run_code(page, "only_here = 1\n")
    page.evaluate("window.sameVisit = scratchgrad.runtime")
    page.locator(f'a.md-nav__link[href$="{page_url("", others[0])}"]:visible').first.click()
    page.wait_for_function(
        "name => document.querySelector('.sg-runnable')?.dataset.sgPage === name",
        arg=others[0].removesuffix(".md"),
    )
    assert page.evaluate("window.sameVisit === scratchgrad.runtime"), "the page was reloaded"
    wait_until_ready(page)
    after = run_code(page, "print(only_here)\n")
    assert after["error"].splitlines()[-1] == "NameError: name 'only_here' is not defined"


@pytest.mark.fresh_context
def test_a_load_failure_says_so_in_the_status_line_and_where_the_reader_runs(context, site_url, watch):
    context.add_init_script(WITHOUT_ISOLATION)  # no service worker, so routing sees every request
    context.route("**/pyodide/python_stdlib.zip", lambda route: route.abort())
    site_page = context.new_page()
    site_page.goto(page_url(site_url, FIRST_PAGE))
    site_page.wait_for_selector('.sg-status[data-status="failed"]', timeout=BLOCK_TIMEOUT_MS)
    status = site_page.text_content(".sg-status")
    assert status.startswith("Python could not start: the Python runtime did not load from ")
    assert status.endswith("Reload the page to try again.")
    runs = runs_of(site_page, 0)
    block(site_page, 0).locator(".sg-button--run").click()
    wait_for_runs(site_page, 0, runs + 1)
    assert block_result(site_page, 0)["notes"] == [status]
    assert watch.errors, "Pyodide logs the failed download"
    watch.errors.clear()  # the failure this test caused on purpose


def scripts_loaded(context, url: str) -> tuple[object, dict[str, int]]:
    """A page at `url`, once it has settled, and the site's own scripts it has loaded (file name →
    bytes; the dict keeps filling as the page loads more).

    Only the page's own requests count: the service worker's download of the whole site for
    offline reading (which starts once a page has loaded) is not what the page loads.
    """
    loaded: dict[str, int] = {}

    def note(response) -> None:
        if (
            "/javascripts/" in response.url
            and "/assets/" not in response.url
            and response.url.endswith(".js")
        ):
            loaded[response.url.rsplit("/", 1)[1]] = int(response.headers.get("content-length", 0))

    site_page = context.new_page()
    site_page.on("response", note)
    site_page.goto(url)
    site_page.wait_for_function("typeof scratchgrad === 'object'", timeout=LOAD_TIMEOUT_MS)
    # A chapter downloads Python meanwhile: on a busy machine, past Playwright's default 30 s.
    site_page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT_MS)
    return site_page, loaded


EDITOR_CODE = 200_000
"""Bytes: CodeMirror's chunk is larger (~370 kB), every other script of a page far smaller."""


@pytest.mark.fresh_context
def test_a_page_of_prose_loads_the_runner_but_no_editor_or_playground_code(context, site_url):
    _, prose = scripts_loaded(context, page_url(site_url, "notation.md"))
    assert "runner.js" in prose, prose
    assert not any(name.startswith(("page-controller", "playgrounds", "exercise-page")) for name in prose), (
        prose
    )
    assert sum(prose.values()) < 20_000, prose


@pytest.mark.fresh_context
def test_a_chapter_loads_codemirror_only_when_the_reader_first_needs_an_editor(context, site_url):
    chapter, loaded = scripts_loaded(context, page_url(site_url, FIRST_PAGE))
    assert any(name.startswith("page-controller") for name in loaded), loaded
    assert chapter.locator(".cm-editor").count() == 0
    assert max(loaded.values()) < EDITOR_CODE, loaded  # the blocks' code came, CodeMirror did not
    block(chapter, 0).locator(":scope > .sg-source").focus()  # Tab reaches the first block's code
    chapter.locator(".sg-runnable >> nth=0 >> .cm-content").wait_for()
    assert max(loaded.values()) > EDITOR_CODE, loaded


def test_a_formula_reached_by_instant_navigation_from_a_page_without_one_is_typeset(context, site_url):
    site_page = context.new_page()
    site_page.goto(site_url + "playground/")  # no formula: KaTeX's sheet loads without blocking
    site_page.wait_for_function("typeof scratchgrad === 'object'")
    served = site_page.evaluate("fetch(location.href).then((response) => response.text())")
    assert '<link rel="stylesheet" href="../vendor/katex/katex.min.css" media="print"' in served
    site_page.wait_for_function("document.querySelector(\"link[href$='katex.min.css']\").media === 'all'")
    site_page.evaluate("""() => {
      const link = Object.assign(document.createElement("a"), { href: "../derivatives/", id: "onward" });
      link.textContent = "Derivatives";
      document.querySelector(".md-content").append(link);
    }""")
    site_page.click("#onward")  # Material's instant navigation: a new body, the same <head>
    site_page.wait_for_selector(".katex")
    assert site_page.evaluate("location.pathname").endswith("/derivatives/")
    font = site_page.evaluate("getComputedStyle(document.querySelector('.katex')).fontFamily")
    assert "KaTeX" in font, font


MATERIAL_ASKED_AFTER_FIRST_PAINT = """() => {
  const [paint] = performance.getEntriesByName("first-contentful-paint");
  const bundle = performance.getEntriesByType("resource")
    .find((each) => /bundle\\.[0-9a-f]+\\.min\\.js$/.test(each.name));
  return paint && bundle ? [paint.startTime, bundle.startTime] : null;
}"""
"""When the page first painted, and when it asked for Material's bundle (ms since it started)."""


@pytest.mark.fresh_context
def test_a_chapter_paints_before_it_asks_for_materials_bundle_and_material_still_mounts(context, site_url):
    """hooks/pyodide_runtime.py and web/boot/material-after-paint.js: Material's bundle is asked
    for after the first frame, then mounts the page as if it had come with it."""
    chapter = open_page(context, page_url(site_url, FIRST_PAGE))  # as loaded once isolated
    chapter.wait_for_function("typeof document$ === 'object'")
    painted, asked = chapter.wait_for_function(MATERIAL_ASKED_AFTER_FIRST_PAINT).json_value()
    assert painted <= asked, f"the bundle was asked for at {asked} ms, before the first paint at {painted} ms"
    chapter.locator(".md-code__nav .md-code__button").first.wait_for(state="attached")  # a copy button
    before = chapter.evaluate("document.body.dataset.mdColorScheme")
    chapter.locator("form[data-md-component=palette] label:visible").click()  # mounted: it switches
    chapter.wait_for_function("s => document.body.dataset.mdColorScheme !== s", arg=before)
    chapter.wait_for_function("scratchgrad.page !== null")
    chapter.evaluate("window.shownFirst = scratchgrad.page")
    chapter.locator("a.md-footer__link--next").click()  # and instant navigation enhances the next page
    chapter.wait_for_function("scratchgrad.page !== null && scratchgrad.page !== window.shownFirst")
    assert chapter.evaluate("typeof window.shownFirst") == "object", (
        "the page was loaded again, not navigated"
    )
