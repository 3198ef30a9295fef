"""Every runnable block of every page, run in Chromium, prints what it printed under CPython.

Each page is opened fresh and its blocks run one by one with Run, in the order of a reader who never
opens a collapsed admonition: the main text's blocks first, in page order, then the collapsed ones.
So a main-text block that needs a name only a collapsed block defines fails here with its NameError
(the runtime twin of the static tests/test_block_dependencies.py).

The page as built holds CPython's output of each block (hooks/runnable.py ran it at build
time); the test reads it, runs the block in the browser (Pyodide, in the worker), and compares:
the printed text exactly, except that a printed float may differ from CPython's in the last bit
(the two libms round tanh/exp differently) and numbers below 1e-9 (rounding noise, such as a
gradient check's relative errors) need only both be that small; the differences are listed in an
artifact. For blocks that must fail: the text before the error and the exception's type
(messages differ between CPython 3.11 and Pyodide's 3.14). For graph options: the node labels
and edge count of the drawing. Afterwards each page is photographed, blocks run, in light and
dark and at phone width, into test-artifacts/browser/. A block marked ``output="varies"`` prints
measurements (timings): it must run without error and print the same lines with other numbers.
"""

from __future__ import annotations

import pytest
from pages import (
    ARTIFACTS,
    READING_ORDER,
    block,
    block_result,
    exception_type,
    float_differences,
    open_page,
    page_url,
    run_block,
    runnable_pages,
    skeleton,
    switch_palette,
)

PAGES = runnable_pages()
PHONE = {"width": 390, "height": 844}
BLOCK_OPTIONS = """
i => {
  const data = document.querySelectorAll(".sg-runnable")[i].dataset;
  return [data.sgExpect ?? null, data.sgBrowser !== "no", data.sgOutput === "varies"];
}
"""


def test_the_site_has_runnable_pages():
    assert PAGES, "no docs page has a ```python run``` block"


def test_every_built_page_with_runnable_blocks_is_tested(site_dir):
    built = {
        "" if path.parent == site_dir else path.parent.relative_to(site_dir).as_posix() + "/"
        for path in site_dir.rglob("index.html")
        if 'class="sg-runnable"' in path.read_text(encoding="utf-8")
    }
    assert built == {page_url("", source) for source in PAGES}


@pytest.mark.parametrize("source", PAGES)
def test_every_block_prints_what_cpython_printed(context, site_url, source):
    page = open_page(context, page_url(site_url, source))
    count = page.locator(".sg-runnable").count()
    assert count > 0, f"{source} has runnable fences but the built page has no runnable block"
    for index in page.evaluate(READING_ORDER):
        built = block_result(page, index)
        assert built["origin"] == "build"
        expect, runs_in_browser, varies = page.evaluate(BLOCK_OPTIONS, index)
        if not runs_in_browser:
            assert block(page, index).locator(".sg-button--run").count() == 0
            assert len(built["notes"]) == 1
            assert "runs only when the site is built" in built["notes"][0]
            continue
        run_block(page, index)
        ran = block_result(page, index)
        where = f"{source}, block {index}"
        assert ran["origin"] == "browser", where
        assert ran["notes"] == [], f"{where}: {ran['notes']}"
        if varies:
            assert skeleton(ran["printed"]) == skeleton(built["printed"]), where
        else:
            rounding = float_differences(ran["printed"], built["printed"])
            assert rounding is not None, f"{where}:\n{ran['printed']!r}\n!=\n{built['printed']!r}"
            if rounding:
                record_rounding(where, rounding)
        if expect:
            assert exception_type(ran["error"]) == exception_type(built["error"]) == expect, where
        else:
            assert ran["error"] is None, f"{where} raised in the browser:\n{ran['error']}" + (
                "\n(it reads a name only a collapsed block above defines: tests/test_block_dependencies.py)"
                if exception_type(ran["error"]) == "NameError"
                else ""
            )
        assert ran["graphs"] == built["graphs"], where
    photograph(page, source)


def record_rounding(where: str, pairs: list[tuple[str, str]]) -> None:
    """Keep the last-bit float differences between Pyodide and CPython where a reader can see them."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "float-rounding-differences.txt").open("a") as log:
        log.writelines(f"{where}: browser {ours} vs CPython {theirs}\n" for ours, theirs in pairs)


def photograph(page, source: str) -> None:
    """Full-page screenshots: light and dark (the header's toggle) at desktop width, light at phone width."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = source.removesuffix(".md").replace("/", "-")
    page.screenshot(path=ARTIFACTS / f"{name}-light.png", full_page=True)
    switch_palette(page, "Switch to dark mode", "slate")
    page.screenshot(path=ARTIFACTS / f"{name}-dark.png", full_page=True)
    switch_palette(page, "Switch to light mode", "default")
    page.set_viewport_size(PHONE)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{source} is {overflow}px wider than a phone screen"
    page.screenshot(path=ARTIFACTS / f"{name}-phone.png", full_page=True)
