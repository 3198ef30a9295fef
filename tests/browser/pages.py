"""What the browser tests do on a page: find runnable pages, open them, run blocks, read results.

Everything here goes through the page as a reader would (buttons, keyboard), except running a
block the reader cannot click at that moment (a hidden set-up block, or one inside a content
tab that is not selected): those go through ``scratchgrad.page.run(block)``, the function the
Run button calls.
"""

from __future__ import annotations

import math
import re
import time

# Which pages are runnable and the URL of each: one definition, shared with the docs tests.
from docs_pages import DOCS as DOCS
from docs_pages import ROOT
from docs_pages import page_url as page_url
from docs_pages import runnable_pages as runnable_pages

ARTIFACTS = ROOT / "test-artifacts" / "browser"
FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][-+]?\d+)?")
LIBM_TOLERANCE = 1e-12
"""How far apart two printed floats may be, relatively: CPython's libm (glibc) and Pyodide's
(musl, in WebAssembly) can round tanh/exp/log differently in the last bit (0.7071067811865476
vs 0.7071067811865477)."""
NOISE_LEVEL = 1e-9
"""Printed numbers this small are rounding noise made visible (a gradient check's "worst
relative error 1.4e-11" is 4.1e-11 in Pyodide): they must both be small, not equal."""
WITHOUT_ISOLATION = "window.coi = { shouldRegister: () => false };"
"""An init script: coi-serviceworker's own switch, so the page stays without cross-origin
isolation, as in a browser where the service worker cannot register (and Playwright's routes
see every request: no service worker answers them)."""
SERVICE_WORKER_CONTROLS = "navigator.serviceWorker.controller !== null"
"""True once the site's service worker is active and controls the page: every page loaded from
then on is cross-origin isolated (web/service-worker/coi-serviceworker.js)."""
LOAD_TIMEOUT_MS = 120_000
BLOCK_TIMEOUT_MS = 300_000


def open_page(context, url: str, *, isolated: bool = True, color_scheme: str | None = None):
    """Open `url` and wait until Python is ready; `isolated`: as a returning reader gets it.

    A reader's first page is not cross-origin isolated (the service worker registers while it is
    shown: web/service-worker/coi-serviceworker.js); every page loaded once the worker is active is.
    `color_scheme` ("light", "dark"): the reader's system preference, for this page only.
    """
    page = context.new_page()
    if color_scheme:
        page.emulate_media(color_scheme=color_scheme)
    page.goto(url)
    if isolated:
        become_isolated(page)
    wait_until_ready(page)
    return page


def become_isolated(page) -> None:
    """Wait for the service worker to be active, then reload, as a reader's next visit would be."""
    if page.evaluate("window.crossOriginIsolated"):
        return
    page.wait_for_function(SERVICE_WORKER_CONTROLS, timeout=LOAD_TIMEOUT_MS)
    page.reload()
    page.wait_for_function("window.crossOriginIsolated === true", timeout=LOAD_TIMEOUT_MS)


def wait_until_ready(page) -> None:
    page.wait_for_selector('.sg-status[data-status="ready"]', timeout=LOAD_TIMEOUT_MS)


EVERY_BLOCK_LAID_OUT = ".md-content .md-typeset > * { content-visibility: visible !important; }"
"""A style that lays out every block of the article at once. Off the screen a block is laid out only
when it comes near (content-visibility: auto, docs/stylesheets/site.css), and until then where its
parts stand is not where they will be: a test of where things are on the page adds this first."""


NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Wait until the browser has drawn a frame after this moment."""


def read_text(locator) -> str:
    """The text a reader reads at `locator`, once scrolled to it. Off the screen, the article's
    blocks are not laid out (content-visibility: auto, docs/stylesheets/site.css), and innerText,
    which follows the layout, is empty there."""
    locator.scroll_into_view_if_needed()
    locator.evaluate(NEXT_FRAME)  # where the browser lays out what came near the screen
    return locator.inner_text()


def switch_palette(page, toggle_title: str, scheme: str) -> None:
    """Click Material's palette switch titled `toggle_title`, as a reader does, and wait until
    the page is in `scheme` (Material's name: "default" or "slate")."""
    page.locator(f'label[title="{toggle_title}"]:visible').click()
    page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=scheme)


def go_back(page) -> None:
    """The browser's Back button, once the browser has recorded the page's latest history entry."""
    _wait_for_history_to_catch_up(page)
    page.go_back()


def go_forward(page) -> None:
    """The browser's Forward button, once the browser has recorded the page's latest history entry."""
    _wait_for_history_to_catch_up(page)
    page.go_forward()


def wait_for_history_entries(page, count: int, timeout_s: float = 10.0) -> None:
    """Wait until the browser's own history list holds `count` entries and stands on the last.

    A test that pushes history entries (the playground's settings) waits for each before the
    next action, as a reader's pace would: it then fails here, saying what the browser recorded,
    if an entry was replaced instead of added.
    """
    cdp = page.context.new_cdp_session(page)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            history = cdp.send("Page.getNavigationHistory")
            entries = [entry["url"] for entry in history["entries"]]
            if len(entries) == count and history["currentIndex"] == count - 1:
                return
            if time.monotonic() > deadline:
                stands = history["currentIndex"]
                raise AssertionError(f"expected {count} history entries, on the last: {entries} on #{stands}")
            page.wait_for_timeout(20)
    finally:
        cdp.detach()


def _wait_for_history_to_catch_up(page, timeout_s: float = 10.0) -> None:
    """Wait until the browser's own history list stands on the URL the page shows.

    ``pushState`` (the playground's settings, Material's instant navigation) changes
    ``location`` in the renderer at once; the browser process records the new entry a moment
    later. Playwright's Back and Forward pick their target from the browser's list, so on a
    busy machine a Back pressed in between goes one entry too far. A reader cannot be that
    fast; a test can.
    """
    cdp = page.context.new_cdp_session(page)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            history = cdp.send("Page.getNavigationHistory")
            recorded = history["entries"][history["currentIndex"]]["url"]
            shown = page.evaluate("location.href")
            if recorded == shown:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the browser's history stands on {recorded}, the page shows {shown}")
            page.wait_for_timeout(20)
    finally:
        cdp.detach()


READING_ORDER = """() => {
  const blocks = [...document.querySelectorAll(".sg-runnable")].map((element, index) => ({
    index, collapsed: element.closest("details:not([open])") !== null }));
  return [...blocks.filter((b) => !b.collapsed), ...blocks.filter((b) => b.collapsed)].map((b) => b.index);
}"""
"""The blocks' indices as a reader who never opens a collapsed admonition (``??? sg-book``, a deep
dive) runs them: the main text's in page order; then the collapsed ones, in page order."""


GRAFT_NOTE = re.compile(
    r"^\((?:\w+: the book's, on your Value|your “[^”]+” [^\n]*the book's is used)[^\n]*\)\n", re.M
)
"""The line a block prints the first time it uses an operation the reader was not asked to write (or a
piece of theirs that fails to load): `scratchgrad.page.reader_engine` says so, and the book says nothing."""

READERS_DESIGN = re.compile(r"kept in a \w+:")


def same_as_the_books(yours: str, books: str) -> bool:
    """Whether the reader's engine printed what the book's did: line by line, the same numbers (as
    numbers: a learner's ``grad = 0`` prints ``2`` where the book's ``0.0`` prints ``2.0``; float
    rounding aside) and the same text around them, except on a line where the book's engine prints
    a Value itself (``Value(data=-8.0)``): there the reader's own ``__repr__`` speaks, and only its
    numbers must agree; and on a line that says what the Value keeps its children in (``kept in a
    set: 1``), which is the reader's design, not a rule. The notes a reader's engine prints about the
    book's operations it borrowed (`GRAFT_NOTE`) are left out."""
    yours = GRAFT_NOTE.sub("", yours)
    if len(yours.splitlines()) != len(books.splitlines()):
        return False
    for mine, book in zip(yours.splitlines(), books.splitlines(), strict=True):
        if READERS_DESIGN.search(book):
            continue
        numbers = [float(n) for n in NUMBER.findall(mine)], [float(n) for n in NUMBER.findall(book)]
        if len(numbers[0]) != len(numbers[1]) or not all(
            math.isclose(a, b, rel_tol=LIBM_TOLERANCE, abs_tol=NOISE_LEVEL)
            for a, b in zip(*numbers, strict=True)
        ):
            return False
        if "Value(" not in book and NUMBER.split(mine) != NUMBER.split(book):
            return False
    return True


def block(page, index: int):
    return page.locator(".sg-runnable").nth(index)


def runs_of(page, index: int) -> int:
    return page.evaluate(
        "i => Number(document.querySelectorAll('.sg-runnable')[i].dataset.sgRuns ?? 0)", index
    )


def wait_for_runs(page, index: int, runs: int, timeout: int = BLOCK_TIMEOUT_MS) -> None:
    page.wait_for_function(
        "([i, n]) => Number(document.querySelectorAll('.sg-runnable')[i].dataset.sgRuns ?? 0) >= n",
        arg=[index, runs],
        timeout=timeout,
    )


def run_block(page, index: int) -> None:
    """Run one block as the reader would and wait until its run is over."""
    runs = runs_of(page, index)
    button = block(page, index).locator(":scope > .sg-toolbar > .sg-button--run")
    if button.count() and button.is_visible():
        button.click()
    else:
        page.evaluate("i => { scratchgrad.page.run(scratchgrad.page.blocks[i]); }", index)
    wait_for_runs(page, index, runs + 1)


def editor_in(scope):
    """The code editor of a block or an exercise (`scope`), made as a reader's Tab makes it. An
    editor is made when first needed (web/shared/editor.js): one far down the page may not be yet,
    and until then the build's code stands in for it, as the first textbox of `scope`."""
    scope.locator("[role=textbox]").first.focus()
    return scope.locator(".cm-content")


def replace_code(page, index: int, code: str) -> None:
    """Select everything in the block's editor and type `code` in its place."""
    editor_in(block(page, index)).click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)


def run_code(page, code: str, index: int = 0) -> dict:
    """Type `code` into a block as the reader would, run it, and read what it shows."""
    replace_code(page, index, code)
    run_block(page, index)
    return block_result(page, index)


def editor_text(page, index: int) -> str:
    return page.evaluate("i => scratchgrad.page.blocks[i].code", index)


READ_RESULT = """
i => {
  const block = document.querySelectorAll(".sg-runnable")[i];
  const result = block.querySelector(":scope > .sg-result");
  const output = result.querySelector(":scope > pre.sg-output");
  const error = output?.querySelector(":scope > .sg-error") ?? null;
  const printed = output
    ? [...output.childNodes].filter((node) => node !== error).map((node) => node.textContent).join("")
    : null;
  const graphs = [...result.querySelectorAll(":scope > .sg-graph")].map((figure) => ({
    label: figure.dataset.sgGraph ?? "",
    texts: [...figure.querySelectorAll("g.node text")].map((text) => text.textContent.trim()).sort(),
    edges: figure.querySelectorAll("g.edge").length,
  }));
  return {
    origin: result.dataset.sgOrigin,
    printed,
    error: error?.textContent ?? null,
    notes: [...result.querySelectorAll(":scope > .sg-note")].map((note) => note.textContent),
    graphs,
  };
}
"""


def block_result(page, index: int) -> dict:
    """What the block's result area shows: printed text, error, notes, graph contents."""
    return page.evaluate(READ_RESULT, index)


def exception_type(error_text: str) -> str:
    """The exception class of a traceback or a ``Type: message`` line (its last line)."""
    return error_text.rstrip().splitlines()[-1].split(":")[0].strip()


NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def skeleton(output: str | None) -> str | None:
    """An output with every number replaced by ``#`` and runs of spaces made one: what a block
    that prints measurements (``output="varies"``) must print the same way on every run."""
    return None if output is None else re.sub(r"[ \t]+", " ", NUMBER.sub("#", output))


def float_differences(browser: str | None, cpython: str | None) -> list[tuple[str, str]] | None:
    """Compare two outputs: None if they differ beyond float rounding, else the pairs of printed
    floats that are not identical (each within LIBM_TOLERANCE relatively, or both below NOISE_LEVEL).

    Everything but the floats must be identical, character for character: text, integers,
    the number of floats and where they stand.
    """
    if browser is None or cpython is None:
        return [] if browser == cpython else None
    if FLOAT.split(browser) != FLOAT.split(cpython):
        return None
    pairs = list(zip(FLOAT.findall(browser), FLOAT.findall(cpython), strict=True))
    differing = [(ours, theirs) for ours, theirs in pairs if ours != theirs]
    if all(
        math.isclose(float(a), float(b), rel_tol=LIBM_TOLERANCE, abs_tol=NOISE_LEVEL) for a, b in differing
    ):
        return differing
    return None


SNAPSHOT_CACHE = "scratchgrad-pyodide-snapshot"
"""The Cache Storage where the worker keeps its Pyodide snapshot (web/worker/pyodide-snapshot.js)."""
SAVED_SNAPSHOTS = f"""
async () => {{
  const cache = await caches.open("{SNAPSHOT_CACHE}");
  const saved = [];
  for (const request of await cache.keys()) {{
    saved.push({{ url: request.url, bytes: (await (await cache.match(request)).arrayBuffer()).byteLength }});
  }}
  return saved;
}}
"""


def booted_from(page) -> str:
    """How the page's Python worker started: "snapshot" or "files"."""
    return page.evaluate("scratchgrad.runtime.info.bootedFrom")


def wait_for_one_snapshot(page) -> dict:
    """The snapshot in Cache Storage ({url, bytes}), once saved (the worker saves it after it is ready)."""
    # wait_for_function takes a returned promise for a truthy answer, whatever it resolves to:
    # each poll starts a look into Cache Storage and answers with the previous one's result.
    page.wait_for_function(
        f"""() => {{
          ({SAVED_SNAPSHOTS})().then((saved) => (globalThis.sgSavedSnapshots = saved));
          const saved = globalThis.sgSavedSnapshots;
          return saved?.length === 1 && saved[0].bytes > 1e6;
        }}""",
        timeout=LOAD_TIMEOUT_MS,
        polling=200,  # each look reads the whole snapshot
    )
    [saved] = page.evaluate(SAVED_SNAPSHOTS)
    return saved


def forget_snapshots(page) -> None:
    """Delete the site's Pyodide snapshots (`page` must show a page of the site's origin)."""
    page.evaluate(f"caches.delete('{SNAPSHOT_CACHE}')")
