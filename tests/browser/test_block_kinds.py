"""Block kinds the chapters may not use, on a page written in the contract's HTML
(runner-fixture.html): a hidden set-up block, a browser="no" block, a must-fail block, and one
whose expect names a base class of the exception it raises."""

from __future__ import annotations

import importlib
import sys

import pytest
from pages import block, block_result, open_page, run_block, runs_of, wait_for_runs

from docs_pages import ROOT

sys.path.insert(0, str(ROOT / "hooks"))
runnable = importlib.import_module("runnable")


@pytest.fixture
def page(context, site_url):
    return open_page(context, site_url + "runner-fixture.html")


def test_hidden_and_build_only_blocks_get_no_editor_and_no_run(page):
    assert block(page, 0).locator(".sg-editor, .sg-toolbar").count() == 0
    assert block(page, 1).locator(".sg-editor, .sg-toolbar").count() == 0
    assert block(page, 1).locator(".sg-source").is_visible()
    build_only = block_result(page, 1)
    assert build_only["printed"] == "2.13.0\n"
    assert build_only["notes"][0].startswith("This block runs only when the site is built")


def test_a_hidden_set_up_block_runs_by_itself_before_the_block_below(page):
    run_block(page, 2)
    assert [runs_of(page, index) for index in range(4)] == [1, 0, 1, 0]
    assert block_result(page, 0)["printed"] == "set up\n"
    must_fail = block_result(page, 2)
    assert must_fail["printed"] == "42\n"
    assert must_fail["error"].splitlines()[-1] == "ZeroDivisionError: division by zero"
    run_block(page, 2)
    assert runs_of(page, 0) == 1, "the set-up block runs once per namespace"


def test_run_from_top_skips_build_only_blocks_and_goes_past_expected_errors(page):
    block(page, 3).locator(".sg-button--from-top").click()
    wait_for_runs(page, 3, 1)
    assert [runs_of(page, index) for index in range(4)] == [1, 0, 1, 1]
    assert block_result(page, 3)["printed"] == "last 41\n"
    assert block_result(page, 1)["origin"] == "build"


BROWSER_VERDICT = """
async ([index, expect]) => {
  const block = scratchgrad.page.blocks[index];
  block.expect = expect;
  return block.succeeded(await block.execute());
}
"""


@pytest.mark.parametrize(
    ("expect", "verdict"),
    [("ArithmeticError", True), ("ZeroDivisionError", True), ("Unlucky", True), ("KeyError", False)],
)
def test_the_build_and_the_browser_judge_a_subclass_of_expect_alike(page, expect, verdict):
    """Block 4 raises Unlucky, a ZeroDivisionError: an expect naming any class of its MRO is met."""
    code = block(page, 4).get_attribute("data-sg-code")
    outcome = runnable.PageSession("fixture").run(code)
    try:
        runnable.check_outcome(outcome, expect, "fixture, block 4")
        build_verdict = True
    except runnable.PluginError:
        build_verdict = False
    assert (build_verdict, page.evaluate(BROWSER_VERDICT, [4, expect])) == (verdict, verdict)
