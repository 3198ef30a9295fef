"""The reader's engine runs the story: "Run with: my engine" puts the reader's pieces in the chapter's blocks.

The reader's work is seeded as the exercises store it (web/exercises/exercise-work.js); the engine a
block runs on is built from it by scratchgrad.page.reader_engine. One browser context for the
module, each chapter loaded once: the tests run in order on the same pages.
"""

from __future__ import annotations

import pytest
from pages import ARTIFACTS, block, block_result, open_page, page_url, runs_of, wait_for_runs

from conftest import PageWatch
from reader_work import ACCUMULATING, NATURAL, SOLUTIONS
from scratchgrad.exercises.registry import by_id

SWAPPED = {**SOLUTIONS, "local-derivatives": by_id("local-derivatives").wrong_source("product-not-swapped")}
"""A deliberately wrong engine: each factor of a product gets its own value as its gradient."""
NEURON = 3  # chain-rule: the neuron o = tanh(x1·w1 + x2·w2 + b), drawn
REUSED = 2  # accumulating-gradients: y = a·b + a, on the reader's own engine
VERDICTS = "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.dataset.sgCheck]))"


@pytest.fixture(scope="module")
def watched(browser):
    watch = PageWatch()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch.attach(context)
    yield context
    context.close()
    assert watch.errors == [], "a page or worker logged errors"


@pytest.fixture(scope="module")
def chain_rule(watched, site_url):
    return open_page(watched, page_url(site_url, "chain-rule.md"))


@pytest.fixture(scope="module")
def accumulating(watched, site_url):
    return open_page(watched, page_url(site_url, "accumulating-gradients.md"))


def seed(page, work: dict[str, str]) -> None:
    """The reader's work as the exercises keep it: each piece passed with this code; nothing else."""
    page.evaluate(
        """work => {
          const prefix = "scratchgrad:exercise:";
          for (const key of Object.keys(localStorage)) {
            if (key.startsWith(prefix)) localStorage.removeItem(key);
          }
          for (const [id, code] of Object.entries(work)) {
            const record = {code, stub: "", checked: true, passed: code};
            localStorage.setItem(prefix + id, JSON.stringify(record));
          }
          window.dispatchEvent(new CustomEvent("scratchgrad:exercise-work", {detail: {id: null}}));
        }""",
        work,
    )


def choose(page, engine: str) -> None:
    page.get_by_role("radio", name=engine).check()


def run_from_top(page, index: int) -> dict:
    runs = runs_of(page, index)
    block(page, index).locator(":scope > .sg-toolbar > .sg-button--from-top").click()
    wait_for_runs(page, index, runs + 1)
    return block_result(page, index)


def checked_nodes(page, index: int) -> dict[str, str]:
    figure = block(page, index).locator(":scope > .sg-result > .sg-graph").first
    figure.get_by_role("button", name="Check gradients").click()
    return figure.locator("g.node[data-sg-check]").evaluate_all(VERDICTS)


def test_the_books_engine_is_the_default_and_changes_nothing(chain_rule):
    seed(chain_rule, SWAPPED)
    choice = chain_rule.locator(".sg-engine-choice")
    assert choice.get_by_role("radio", name="the book's engine").is_checked()
    built = block_result(chain_rule, NEURON)["printed"]
    ran = run_from_top(chain_rule, NEURON)
    assert (ran["origin"], ran["printed"]) == ("browser", built)


def test_a_wrong_engine_prints_its_own_numbers_and_the_wrong_nodes_are_marked(chain_rule):
    choose(chain_rule, "my engine")
    line = chain_rule.locator(".sg-engine-choice__pieces").inner_text()
    assert "your pieces: “A Value that remembers how it was made”, " in line
    assert "“Backward rules for +, * and tanh”" in line
    assert "Not passed yet" not in line
    assert (
        "The next runs use your engine." in chain_rule.locator(".sg-engine-choice [role=status]").inner_text()
    )
    assert "sg-runnable--yours" in block(chain_rule, NEURON).get_attribute("class")
    ran = run_from_top(chain_rule, NEURON)
    # do/dx1 = w1·(1 − o²) = −1.5 with the product's rule right; the swapped rule gives x1 its own value
    assert "do/dx1 = -1.5000" not in ran["printed"]
    assert "do/dx1 = +1.0000" in ran["printed"]
    verdicts = checked_nodes(chain_rule, NEURON)
    assert {node for node, verdict in verdicts.items() if verdict == "wrong"} == {"x1", "w1", "x2", "w2"}
    assert verdicts["o"] == verdicts["z"] == "ok"
    for width, scheme in ((1280, "default"), (1280, "slate"), (390, "default")):
        chain_rule.set_viewport_size({"width": width, "height": 1100})
        chain_rule.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        chain_rule.locator(".sg-page-bar").screenshot(
            path=str(ARTIFACTS / f"reader-engine-choice-{width}-{scheme}.png")
        )
        block(chain_rule, NEURON).screenshot(
            path=str(ARTIFACTS / f"reader-engine-wrong-{width}-{scheme}.png")
        )
    chain_rule.set_viewport_size({"width": 1280, "height": 900})
    chain_rule.evaluate("document.body.setAttribute('data-md-color-scheme', 'default')")


def test_a_correct_engine_prints_the_books_output(chain_rule):
    seed(chain_rule, ACCUMULATING)
    choose(chain_rule, "the book's engine")
    books = run_from_top(chain_rule, NEURON)["printed"]
    choose(chain_rule, "my engine")
    assert run_from_top(chain_rule, NEURON)["printed"] == books
    assert set(checked_nodes(chain_rule, NEURON).values()) == {"ok"}


def test_the_choice_is_kept_for_the_next_page_with_pieces_not_passed_named(accumulating):
    seed(accumulating, {"local-derivatives": NATURAL["local-derivatives"]})
    assert accumulating.get_by_role("radio", name="my engine").is_checked()
    line = accumulating.locator(".sg-engine-choice__pieces").inner_text()
    yours, books = line.split("Not passed yet, so the book's: ")
    assert yours.endswith("run on your pieces: “Backward rules for +, * and tanh”. ")
    assert "“backward()”" in books


def test_the_readers_natural_rules_lose_a_share_on_a_reused_node(accumulating):
    seed(accumulating, NATURAL)
    ran = run_from_top(accumulating, REUSED)
    assert ran["printed"].startswith("dy/da = -3 ")
    verdicts = checked_nodes(accumulating, REUSED)
    assert verdicts["a"] == "wrong"
    label = (
        block(accumulating, REUSED).locator('g.node[data-sg-node="a"] .sg-check-label').first.text_content()
    )
    assert label == "✗ expected −2.0, got −3.0"


def test_an_engine_that_adds_sees_what_equals_would_do_to_it(accumulating):
    seed(accumulating, ACCUMULATING)
    assert run_from_top(accumulating, REUSED)["printed"].startswith("dy/da = -2 ")
    block(accumulating, REUSED).get_by_role("switch").check()
    bug = block(accumulating, REUSED).locator(":scope > .sg-result--bug")
    bug.locator("xpath=self::*[@data-sg-runs='1']").wait_for()
    assert "dy/da = -3 " in bug.locator(".sg-output").inner_text()
    assert accumulating.evaluate("localStorage.getItem('scratchgrad:engine')") == "mine"
