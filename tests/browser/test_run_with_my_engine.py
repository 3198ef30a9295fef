"""The reader's engine runs the story: "Run with: my engine" puts the reader's pieces in the chapter's blocks.

The reader's work is seeded as the exercises store it (web/shared/exercise-work.js); the engine a
block runs on is built from it by scratchgrad.page.reader_engine. One browser context for the
module, each chapter loaded once: the tests run in order on the same pages.
"""

from __future__ import annotations

import pytest
from pages import (
    ARTIFACTS,
    block,
    block_result,
    exception_type,
    open_page,
    page_url,
    read_text,
    run_block,
    runs_of,
    wait_for_runs,
)

from conftest import PageWatch
from reader_work import ACCUMULATING, LEARNER, NATURAL, SOLUTIONS
from scratchgrad.exercises.registry import by_id

SWAPPED = {**SOLUTIONS, "local-derivatives": by_id("local-derivatives").wrong_source("product-not-swapped")}
"""A deliberately wrong engine: each factor of a product gets its own value as its gradient."""
NEURON = 3  # chain-rule: the neuron o = tanh(x1·w1 + x2·w2 + b), drawn
ON_EQUALS = 0  # accumulating-gradients: the diamond and a sum of squares on the = stage
REUSED = 6  # accumulating-gradients: y = a·b + a, on the reader's own engine with the fix
WALK, NUDGE_CHECK = 4, 5  # backprop-by-hand: backprop_by_hand(a, b, c, f, e, d, L), drawn; then nudging
WRONG_ORDER = 4  # accumulating-gradients: the diamond's graph, with the "wrong order" switch
STORY_TRAINING = 5  # training: the story's network trained by train()
STORY_MOONS = 8  # beyond-four-points: the story's network trained on the moons by train()
WRONG_WALK = {**SOLUTIONS, "backprop-by-hand": by_id("backprop-by-hand").wrong_source("swapped-product")}
"""A reader whose walk gives each factor of a product its own value: dL/dd = d = 4 where f = -2 belongs."""
UPHILL = {**ACCUMULATING, "training": by_id("training").wrong_source("uphill")}
"""A reader whose loop moves every parameter up its gradient."""
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
            const record = {code, stub: "", checked: true, passed: code, lastChecked: code};
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


def screenshot_block(page, index: int, path) -> None:
    """The block as a reader sees it: the whole block when it fits the window; else the window, the
    block scrolled into view (a capture taller than the window would paint the fixed header over it)."""
    element = block(page, index)
    if element.evaluate("e => e.getBoundingClientRect().height") <= page.viewport_size["height"]:
        element.screenshot(path=str(path))
    else:
        element.evaluate("e => e.scrollIntoView()")
        page.screenshot(path=str(path))


def test_the_readers_engine_is_the_default_once_they_have_one_and_the_books_changes_nothing(chain_rule):
    seed(chain_rule, {})
    choice = chain_rule.locator(".sg-engine-choice")
    assert choice.get_by_role("radio", name="the book's engine").is_checked()
    seed(chain_rule, SWAPPED)
    assert choice.get_by_role("radio", name="my engine").is_checked()
    assert "run on your pieces" in read_text(chain_rule.locator(".sg-engine-choice__pieces"))
    choose(chain_rule, "the book's engine")
    built = block_result(chain_rule, NEURON)["printed"]
    ran = run_from_top(chain_rule, NEURON)
    assert (ran["origin"], ran["printed"]) == ("browser", built)


def test_a_wrong_engine_prints_its_own_numbers_and_the_wrong_nodes_are_marked(chain_rule):
    choose(chain_rule, "my engine")
    line = read_text(chain_rule.locator(".sg-engine-choice__pieces"))
    assert "your pieces: “A Value that remembers how it was made”, " in line
    assert "“Backward rules for +, * and tanh”" in line
    assert "Not passed yet" not in line
    assert "The next runs use your engine." in read_text(
        chain_rule.locator(".sg-engine-choice [role=status]")
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
        screenshot_block(chain_rule, NEURON, ARTIFACTS / f"reader-engine-wrong-{width}-{scheme}.png")
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
    line = read_text(accumulating.locator(".sg-engine-choice__pieces"))
    yours, books = line.split("Not passed yet, so the book's: ")
    assert yours.endswith("run on your pieces: “Backward rules for +, * and tanh”. ")
    assert "“backward()”" in books


def test_the_readers_natural_rules_lose_a_share_on_a_reused_node_and_the_books_fix_adds_it(accumulating):
    seed(accumulating, NATURAL)
    run_block(accumulating, ON_EQUALS)  # the page's first block: nothing above it to run
    ran = block_result(accumulating, ON_EQUALS)
    assert ran["printed"].startswith("with = :  dL/da = 18.0  dL/db = -12.0")
    assert "dloss/dx3 = 3.0" in ran["printed"]
    assert run_from_top(accumulating, REUSED)["printed"].startswith("dL/da = -2 ")
    block(accumulating, REUSED).get_by_role("switch").check()
    bug = block(accumulating, REUSED).locator(":scope > .sg-result--bug")
    bug.locator("xpath=self::*[@data-sg-runs='1']").wait_for()
    figure = bug.locator(".sg-graph").first
    figure.get_by_role("button", name="Check gradients").click()
    label = figure.locator('g.node[data-sg-node="a"] .sg-check-label').first.text_content()
    assert label == "✗ expected −2.0, got −3.0"
    block(accumulating, REUSED).get_by_role("switch").uncheck()


def test_an_engine_that_adds_sees_what_equals_would_do_to_it(accumulating):
    seed(accumulating, ACCUMULATING)
    assert run_from_top(accumulating, REUSED)["printed"].startswith("dL/da = -2 ")
    block(accumulating, REUSED).get_by_role("switch").check()
    bug = block(accumulating, REUSED).locator(":scope > .sg-result--bug")
    bug.locator("xpath=self::*[@data-sg-runs='1']").wait_for()
    assert "dL/da = -3 " in bug.locator(".sg-output").inner_text()
    assert accumulating.locator('input[name="sg-engine"][value="mine"]').is_checked()  # the switch left it


def quoted_lines(figure) -> list[tuple[str, int, str]]:
    """Step through the figure's backward to the end: (file, line, text) of every line quoted."""
    figure.get_by_role("button", name="Step through backward").click()
    quoted = []
    while True:
        for line in figure.locator(".sg-step-code").inner_text().splitlines():
            if ", line " in line and not line.startswith("the op's rule"):
                file, _, rest = line.partition(", line ")
                number, _, text = rest.partition(":  ")
                quoted.append((file, int(number), text.strip()))
        if figure.get_by_role("button", name="Next step").is_disabled():
            return quoted
        figure.get_by_role("button", name="Next step").click()


def test_step_through_quotes_the_readers_own_rules_and_the_overwrite_copy_its_own(watched, site_url):
    """The page also loads the overwrite stage's copy of the reader's rules, rewritten with =:
    stepping through their engine quotes the += lines they wrote, the switch's run the copy's.
    A page of its own: the tests above leave the module's page with the switch on and its result."""
    accumulating = open_page(watched, page_url(site_url, "accumulating-gradients.md"))
    seed(accumulating, LEARNER)
    run_from_top(accumulating, REUSED)
    switch = block(accumulating, REUSED).get_by_role("switch")
    switch.check()
    bug = block(accumulating, REUSED).locator(":scope > .sg-result--bug")
    bug.locator("xpath=self::*[@data-sg-runs='1']").wait_for()
    source = LEARNER["accumulate"].splitlines()
    figure = block(accumulating, REUSED).locator(":scope > .sg-result:not(.sg-result--bug) .sg-graph").first
    theirs = quoted_lines(figure)
    copy = quoted_lines(bug.locator(".sg-graph").first)
    assert theirs
    assert {file for file, _, _ in theirs} == {"<yours: accumulate>"}
    assert all(text == source[line - 1].strip() and ".grad +=" in text for _, line, text in theirs)
    assert copy
    assert {file for file, _, _ in copy} == {"<yours: accumulate, with the overwrite bug>"}
    assert all(text == source[line - 1].strip().replace("+=", "=") for _, line, text in copy)
    figure.get_by_role("button", name="Restart").click()
    figure.get_by_role("button", name="Next step").click()
    for width in (1280, 390):
        accumulating.set_viewport_size({"width": width, "height": 1100})
        figure.evaluate("e => e.scrollIntoView()")
        figure.screenshot(path=str(ARTIFACTS / f"reader-engine-step-through-{width}-default.png"))
    accumulating.close()


@pytest.fixture(scope="module")
def by_hand(watched, site_url):
    return open_page(watched, page_url(site_url, "backprop-by-hand.md"))


def node_grads(page, index: int) -> dict[str, str]:
    """The gradient each node of the block's drawing shows, by node name."""
    figure = block(page, index).locator(":scope > .sg-result > .sg-graph").first
    return figure.locator("g.node[data-sg-node]").evaluate_all(
        "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.textContent]))"
    )


def test_the_readers_walk_by_hand_fills_the_chapters_graph_with_its_own_numbers(by_hand):
    seed(by_hand, WRONG_WALK)
    choose(by_hand, "my engine")
    line = read_text(by_hand.locator(".sg-engine-choice__pieces"))
    assert (
        "your pieces: “A Value that remembers how it was made”, “The chapter's gradients, by hand”." in line
    )
    assert "sg-runnable--yours" in block(by_hand, WALK).get_attribute("class")
    built = block_result(by_hand, WALK)["printed"]
    ran = run_from_top(by_hand, WALK)
    assert built.startswith("dL/da = +6.0  dL/db = -4.0")
    assert ran["printed"].startswith(
        "dL/da = +8.0  dL/db = -12.0  dL/dc = +4.0  dL/df = -2.0  dL/de = +4.0  dL/dd = +4.0"
    )
    assert "grad 4.0000" in node_grads(by_hand, WALK)["d"]  # drawn as the reader's walk left it
    runs = runs_of(by_hand, NUDGE_CHECK)
    block(by_hand, NUDGE_CHECK).locator(":scope > .sg-toolbar > .sg-button--run").click()
    wait_for_runs(by_hand, NUDGE_CHECK, runs + 1)
    checked = block_result(by_hand, NUDGE_CHECK)
    assert "dL/da: by hand +8.0, by nudging +6.0" in checked["printed"]
    assert exception_type(checked["error"]) == "AssertionError"
    for width, scheme in ((1280, "default"), (1280, "slate"), (390, "default")):
        by_hand.set_viewport_size({"width": width, "height": 1100})
        by_hand.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        screenshot_block(by_hand, WALK, ARTIFACTS / f"reader-engine-walk-{width}-{scheme}.png")
    by_hand.set_viewport_size({"width": 1280, "height": 900})
    by_hand.evaluate("document.body.setAttribute('data-md-color-scheme', 'default')")
    seed(by_hand, SOLUTIONS)
    assert run_from_top(by_hand, WALK)["printed"] == built


def test_the_wrong_order_switch_reaches_the_readers_values(watched, site_url):
    page = open_page(watched, page_url(site_url, "accumulating-gradients.md"))
    seed(page, ACCUMULATING)
    choose(page, "my engine")  # as the reader does: this test may run alone, without the ones that chose it
    assert page.get_by_role("radio", name="my engine").is_checked()
    run_from_top(page, WRONG_ORDER)
    assert set(checked_nodes(page, WRONG_ORDER).values()) == {"ok"}
    block(page, WRONG_ORDER).get_by_role("switch").check()
    bug = block(page, WRONG_ORDER).locator(":scope > .sg-result--bug")
    bug.locator("xpath=self::*[@data-sg-runs='1']").wait_for()
    figure = bug.locator(".sg-graph").first
    figure.get_by_role("button", name="Check gradients").click()
    verdicts = figure.locator("g.node[data-sg-check]").evaluate_all(VERDICTS)
    assert {node for node, verdict in verdicts.items() if verdict == "wrong"} == {"a", "b"}
    page.close()


def test_the_readers_training_loop_trains_the_storys_network(watched, site_url):
    page = open_page(watched, page_url(site_url, "training.md"))
    seed(page, UPHILL)
    choose(page, "my engine")  # as the reader does: this test may run alone, without the ones that chose it
    built = block_result(page, STORY_TRAINING)["printed"]
    assert built.rstrip().endswith("to 1e-9: True")
    ran = run_from_top(page, STORY_TRAINING)["printed"]
    assert ran.splitlines()[0] == built.splitlines()[0]  # the same start: the book's weights
    assert ran.rstrip().endswith("to 1e-9: False")
    seed(page, ACCUMULATING)
    assert run_from_top(page, STORY_TRAINING)["printed"].rstrip().endswith("to 1e-9: True")
    page.close()


def test_the_readers_engine_trains_the_moons_past_training(watched, site_url):
    page = open_page(watched, page_url(site_url, "beyond-four-points.md"))
    seed(page, UPHILL)
    choose(page, "my engine")
    built = block_result(page, STORY_MOONS)["printed"]
    assert built.rstrip().endswith("40 of 40")
    run_block(page, STORY_MOONS)  # alone: the block makes its own data
    ran = block_result(page, STORY_MOONS)["printed"]
    assert ran.splitlines()[0] == built.splitlines()[0]  # the same start: the book's weights
    assert not ran.rstrip().endswith("40 of 40")  # the reader's loop, uphill
    page.close()


SCROLLED_TO_TOP = "element => { element.scrollIntoView(); return element.getBoundingClientRect().top; }"
"""Bring the element into view as a script or an anchor does; return where its top then stands."""


def test_on_a_phone_the_header_leaves_the_code_it_scrolls_to_in_view(watched, site_url):
    """An exercise, a block, a block's first line of code: brought into view (an anchor, a test's
    or a script's scrollIntoView), each stops below Material's fixed header, not under it (without
    the stylesheet's scroll-margin-top each stood at 0, under the 48 px header)."""
    page = open_page(watched, page_url(site_url, "backprop-by-hand.md"))
    page.set_viewport_size({"width": 390, "height": 844})
    header = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert header > 0
    for target in (
        'section[data-sg-exercise="backprop-by-hand"]',
        f".sg-runnable >> nth={WALK}",
        # its editor's first line, or the build's code standing in for an editor not made yet
        f".sg-runnable >> nth={WALK} >> :is(.cm-line, .sg-source code > span) >> visible=true >> nth=0",
    ):
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        top = page.locator(target).evaluate(SCROLLED_TO_TOP)
        assert top >= header, target
    page.screenshot(path=str(ARTIFACTS / "reader-engine-phone-scrolled.png"))
    page.close()
