"""A block's slider (web/page/value-slider.js): moving it edits the code and the block runs again.

On "Derivatives by nudging", the gradient-descent block has a slider for its learning rate. Moved
with the keyboard, as a reader without a mouse would, it must rewrite `lr = …` in the editor, run
the page from the top (the block needs `f` and `nudged_slope` from above), and print what CPython
prints for the same code.
"""

from __future__ import annotations

import time

from pages import (
    ARTIFACTS,
    BLOCK_TIMEOUT_MS,
    block,
    block_result,
    editor_in,
    editor_text,
    open_page,
    page_url,
    runs_of,
    wait_for_runs,
)

from docs_pages import page_fences
from scratchgrad.page import blocks

PAGE = "derivatives.md"
SLIDER_BLOCK = "[...document.querySelectorAll('.sg-runnable')].findIndex((b) => b.dataset.sgSlider)"
RUNS = "i => Number(document.querySelectorAll('.sg-runnable')[i].dataset.sgRuns ?? 0)"


def cpython_printed(page_source: str, index: int, code: str) -> str:
    """What the page's block `index` prints in CPython with `code` in its place, the blocks above first."""
    runnable = [fence.body for fence in page_fences(page_source) if fence.runnable]
    namespace = blocks.new_namespace()
    for number, source in enumerate([*runnable[:index], code]):
        outcome = blocks.run_block(source, f"<block {number + 1}>", namespace, capture=True)
    assert outcome.raised is None, outcome.raised
    return outcome.printed


def test_the_slider_moved_by_keyboard_rewrites_lr_and_reruns_from_the_top(context, site_url):
    page = open_page(context, page_url(site_url, PAGE))
    index = page.evaluate(SLIDER_BLOCK)
    assert index > 0, "the descent block has no slider"
    slider = block(page, index).get_by_role("slider", name="lr")
    assert slider.input_value() == "0.1"
    runs = runs_of(page, index)
    slider.focus()
    for _ in range(25):  # 0.10 → 0.35: the rate at which x runs away
        page.keyboard.press("ArrowRight")
    wait_for_runs(page, index, runs + 1)
    code = editor_text(page, index)
    assert code.startswith("lr = 0.35  #"), code
    assert block(page, index).locator("output").text_content() == "0.35"
    # The first rerun may have started at a rate on the way to 0.35 (a loaded machine runs the
    # blocks slower than keys repeat): the block must end up showing the last rate's run.
    expected = cpython_printed(PAGE, index, code)
    deadline = time.monotonic() + BLOCK_TIMEOUT_MS / 1000
    while (shown := block_result(page, index))["printed"] != expected and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert shown["origin"] == "browser"
    assert shown["error"] is None
    assert shown["printed"] == expected
    assert page.evaluate(RUNS, index - 1) >= 1, "the blocks above ran first"
    block(page, index).screenshot(path=ARTIFACTS / "slider-derivatives.png")


def test_the_slider_follows_typed_edits_and_says_when_its_line_is_gone(context, site_url):
    page = open_page(context, page_url(site_url, PAGE))
    index = page.evaluate(SLIDER_BLOCK)
    slider = block(page, index).get_by_role("slider", name="lr")
    editor = editor_in(block(page, index))
    editor.click()
    page.keyboard.press("ControlOrMeta+Home")
    page.keyboard.press("Shift+End")
    page.keyboard.insert_text("lr = 0.25")
    assert slider.input_value() == "0.25"
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text("x = 3.0\n")
    assert slider.is_disabled()
    assert "No line “lr = …” in the code" in block(page, index).locator(".sg-slider-note").text_content()
