"""Drawn graphs: every drawing fits its column; "Check gradients" and "Step through backward" work.

Fitting is measured, not eyeballed: at 1280 px and at 390 px, every graph of every page lies
inside the content column; a drawing wider than the column is inside a scroll region, and then
its text must still be at least MIN_TEXT_PX (web/graph/graph-view.js) on screen.
"""

from __future__ import annotations

import pytest
from pages import (
    ARTIFACTS,
    DOCS,
    EVERY_BLOCK_LAID_OUT,
    block,
    open_page,
    page_url,
    replace_code,
    run_block,
    runnable_pages,
)

MIN_TEXT_PX = 10
GRAPH_PAGES = [page for page in runnable_pages() if 'graph="' in (DOCS / page).read_text(encoding="utf-8")]
FIRST_PAGE = "value-object.md"

MEASURE = """
() => {
  const column = document.querySelector(".md-content__inner").getBoundingClientRect();
  return [...document.querySelectorAll(".md-content .sg-graph")].map((figure) => {
    const box = figure.getBoundingClientRect();
    const scroller = figure.querySelector(".sg-graph-scroll");
    const svg = figure.querySelector("svg");
    const drawn = svg.getBoundingClientRect();
    const scale = drawn.width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll("text")];
    const sizes = texts.map((t) => scale * parseFloat(t.getAttribute("font-size")));
    return {
      label: figure.dataset.sgGraph ?? "",
      left: box.left - column.left,
      right: column.right - box.right,
      svgInside: drawn.left >= column.left - 0.5 && drawn.right <= column.right + 0.5,
      scrolls: scroller ? scroller.scrollWidth > scroller.clientWidth + 1 : false,
      region: scroller && [scroller.tabIndex, ...["role", "aria-label"].map((a) => scroller.getAttribute(a))],
      smallestText: Math.min(...sizes),
      nodesNamed: [...svg.querySelectorAll("g.node")].every((g) => g.dataset.sgNode),
    };
  });
}
"""


@pytest.mark.fresh_context(service_workers="block")
@pytest.mark.parametrize("width", [1280, 390])
def test_every_drawing_fits_its_column(context, site_url, width):
    assert GRAPH_PAGES, "no chapter draws a graph: the test would check nothing"
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    measured = 0
    for source in GRAPH_PAGES:
        page.goto(page_url(site_url, source))
        page.add_style_tag(content=EVERY_BLOCK_LAID_OUT)
        page.wait_for_function(
            "document.querySelectorAll('.sg-graph').length > 0 && "
            "[...document.querySelectorAll('.sg-graph')].every((f) => f.dataset.sgEnhanced !== undefined)"
        )
        for drawing in page.evaluate(MEASURE):
            where = f"{source} at {width} px, graph {drawing['label']!r}"
            assert drawing["left"] >= -0.5, where
            assert drawing["right"] >= -0.5, where
            assert drawing["nodesNamed"], where
            assert drawing["region"][:2] == [0, "region"], where
            assert drawing["region"][2], where
            if drawing["scrolls"]:
                assert drawing["smallestText"] >= MIN_TEXT_PX - 0.05, where
            else:
                assert drawing["svgInside"], where
            measured += 1
    assert measured >= len(GRAPH_PAGES)


def graph_figure(page, index=0):
    return block(page, index).locator(".sg-graph").first


OFF_TANH = """\
import math


class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.grad, self.label = data, 0.0, label
        self._prev, self._op = tuple(_children), _op
        self._backward = lambda: None

    def __mul__(self, other):
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, "", (self,), "tanh")

        def _backward():
            self.grad += (1 - t) * out.grad  # wrong: the derivative is 1 - t**2

        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def build(node):
            if node not in seen:
                seen.add(node)
                for child in node._prev:
                    build(child)
                order.append(node)

        build(self)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


x, w = Value(0.5, label="x"), Value(-1.5, label="w")
n = x * w
n.label = "n"
t = n.tanh()
t.label = "t"
o = t * Value(2.0, label="k")
o.label = "o"
show_graph(o)
"""


@pytest.fixture
def page(context, site_url):
    return open_page(context, page_url(site_url, FIRST_PAGE))


def test_check_gradients_marks_exactly_the_node_below_a_wrong_tanh_backward(page):
    replace_code(page, 0, OFF_TANH)
    run_block(page, 0)
    figure = graph_figure(page)
    names = figure.locator("g.node[data-sg-node]").evaluate_all("(gs) => gs.map((g) => g.dataset.sgNode)")
    assert {"x", "w", "n", "t", "k", "o"} <= set(names)
    figure.get_by_role("button", name="Check gradients").click()
    checks = figure.locator("g.node[data-sg-check]").evaluate_all(
        "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.dataset.sgCheck]))"
    )
    # n's gradient is the first one wrong; x and w get it through n, and are wrong too
    assert checks == {"x": "wrong", "w": "wrong", "n": "wrong", "t": "ok", "k": "ok", "o": "ok"}
    report = figure.locator(".sg-graph-report").inner_text()
    assert "t (tanh) passed" in report
    assert "look at the backward of 'tanh'" in report
    assert figure.locator('g.node[data-sg-node="n"] .sg-check-label').text_content().startswith("✗ expected")
    page.screenshot(path=str(ARTIFACTS / "graph-check-wrong-tanh.png"), full_page=False)


def test_stepping_through_backward_of_five_values_in_order_with_the_numbers(page):
    code = (
        "from scratchgrad import Value\n\n"
        'a, b = Value(2.0, label="a"), Value(-3.0, label="b")\n'
        "e = a * b\n"
        'e.label = "e"\n'
        'f = Value(-2.0, label="f")\n'
        "L = e * f\n"
        'L.label = "L"\n'
        "show_graph(L)\n"
    )
    replace_code(page, 0, code)
    run_block(page, 0)
    figure = graph_figure(page)
    figure.get_by_role("button", name="Step through backward").click()
    text = figure.locator(".sg-step-text")
    assert text.get_attribute("aria-live") == "polite"
    seen = []
    for _ in range(6):
        seen.append((current(figure), text.inner_text(), figure.locator(".sg-step-code").inner_text()))
        if figure.get_by_role("button", name="Next step").is_disabled():
            break
        page.keyboard.press("Enter")  # focus stays on Next step: the keyboard walks the pass
    order = [node for node, _, _ in seen]
    assert order == ["L", "L", "f", "e", "b", "a"]  # the seed, then backward's visits
    steps = {node: words for node, words, _ in seen[1:]}
    assert "e.grad += f.data × L.grad = −2.0 × 1.0 = −2.0" in steps["L"]
    assert "f.grad += e.data × L.grad = −6.0 × 1.0 = −6.0" in steps["L"]
    assert "a.grad += b.data × e.grad = −3.0 × −2.0 = 6.0" in steps["e"]
    assert "b.grad += a.data × e.grad = 2.0 × −2.0 = −4.0" in steps["e"]
    code_shown = {node: code for node, _, code in seen[1:]}
    assert "scratchgrad/engine.py" in code_shown["e"]
    assert "child.grad += local * grad" in code_shown["e"]
    # the drawing's grad fields follow the pass: after e's step, b shows its gradient
    assert "grad -4.0000" in figure.locator('g.node[data-sg-node="b"]').text_content()
    figure.get_by_role("button", name="Previous step").click()
    assert figure.get_by_role("button", name="Play").count() == 1
    assert figure.get_by_role("button", name="Restart").count() == 1


def test_a_readers_closure_marks_the_line_that_ran_in_the_editor(page):
    replace_code(page, 0, OFF_TANH)
    run_block(page, 0)
    figure = graph_figure(page)
    figure.get_by_role("button", name="Step through backward").click()
    for _ in range(4):  # the seed, o's visit, k's, then t's (the tanh)
        if "visits t." in figure.locator(".sg-step-text").inner_text():
            break
        figure.get_by_role("button", name="Next step").click()
    assert current(figure) == "t"
    marked = block(page, 0).locator(".sg-editor-line--marked").all_inner_texts()
    assert [line.strip() for line in marked] == [
        "self.grad += (1 - t) * out.grad  # wrong: the derivative is 1 - t**2"
    ]
    assert "✗ but n.grad changed by" in figure.locator(".sg-step-text").inner_text()


def current(figure) -> str:
    return figure.locator("g.node[data-sg-current]").get_attribute("data-sg-node")


def test_the_overwrite_switch_shows_the_wrong_gradient_beside_the_right_one(context, site_url):
    page = open_page(context, page_url(site_url, "accumulating-gradients.md"))
    runnable = page.locator('.sg-runnable[data-sg-break="overwrite"]').first  # the package's Value
    runnable.get_by_role("switch", name="Use = instead of += in backward()").check()
    bugged = runnable.locator(".sg-result--bug[data-sg-runs='1']")
    bugged.wait_for(timeout=120_000)
    assert "engine: db/da = 1.0" in bugged.locator(".sg-output").inner_text()
    verdicts = "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.dataset.sgCheck]))"
    assert bugged.locator("g.node[data-sg-check]").evaluate_all(verdicts) == {"a": "wrong", "b": "ok"}
    right = runnable.locator(".sg-result:not(.sg-result--bug)")
    assert right.locator("g.node[data-sg-check]").evaluate_all(verdicts) == {"a": "ok", "b": "ok"}
    assert "expected 2.0, got 1.0" in bugged.locator(".sg-graph-report").inner_text()
    page.set_viewport_size({"width": 1280, "height": 1000})
    runnable.screenshot(path=str(ARTIFACTS / "graph-break-overwrite.png"))
    runnable.get_by_role("switch", name="Use = instead of += in backward()").uncheck()
    assert runnable.locator(".sg-result--bug").count() == 0


VERDICTS = "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.dataset.sgCheck]))"
GOT = "(gs) => Object.fromEntries(gs.map((g) => [g.dataset.sgNode, g.textContent]))"


def switch_on(context, site_url, source: str, bug: str, label: str):
    """Open `source`, turn on its switch for `bug` (named `label`), wait for the run with the bug."""
    page = open_page(context, page_url(site_url, source))
    runnable = page.locator(f'.sg-runnable[data-sg-break="{bug}"]')
    runnable.get_by_role("switch", name=label).check()
    bugged = runnable.locator(".sg-result--bug[data-sg-runs='1']")
    bugged.wait_for(timeout=120_000)
    return page, runnable, bugged


def test_the_wrong_order_switch_shows_minus_12_and_8_where_6_and_minus_4_belong(context, site_url):
    label = "Walk from the output, not in topological order"
    page, runnable, bugged = switch_on(context, site_url, "accumulating-gradients.md", "wrong-order", label)
    wrong = bugged.locator("g.node[data-sg-check]")
    assert wrong.evaluate_all(VERDICTS) == {
        "a": "wrong",
        "b": "wrong",
        "c": "ok",
        "d": "ok",
        "e": "ok",
        "L": "ok",
    }
    labels = bugged.locator("g.node[data-sg-check='wrong'] .sg-check-label").evaluate_all(
        "(ls) => Object.fromEntries(ls.map((l) => [l.parentNode.dataset.sgNode, l.textContent]))"
    )
    assert labels == {"a": "✗ expected 6.0, got −12.0", "b": "✗ expected −4.0, got 8.0"}
    assert "grad -12.0000" in bugged.locator('g.node[data-sg-node="a"]').text_content()
    right = runnable.locator(".sg-result:not(.sg-result--bug) g.node[data-sg-check]")
    assert set(right.evaluate_all(VERDICTS).values()) == {"ok"}
    assert (
        "grad 6.0000"
        in runnable.locator('.sg-result:not(.sg-result--bug) g.node[data-sg-node="a"]').text_content()
    )
    shoot_switch(page, runnable, "wrong-order")


def test_the_recursive_switch_raises_recursion_error_where_the_iterative_walk_finishes(context, site_url):
    label = "Sort the graph recursively in backward()"
    page, runnable, bugged = switch_on(context, site_url, "automatic-backward.md", "recursive", label)
    assert "RecursionError: maximum recursion depth exceeded" in bugged.inner_text()
    right = runnable.locator(".sg-result:not(.sg-result--bug) .sg-output").inner_text()
    assert "dloss/dx3 = 2.0" in right
    assert "Error" not in right
    shoot_switch(page, runnable, "recursive")


def test_the_zero_grad_switch_draws_the_curve_that_goes_wrong_beside_the_right_one(context, site_url):
    label = "Forget zero_grad() between training steps"
    page, runnable, bugged = switch_on(context, site_url, "training.md", "no-zero-grad", label)
    printed = bugged.locator(".sg-output").inner_text()
    assert "same 100 losses as the hand-written loop: False" in printed
    assert "final loss 1.000000" in printed
    assert "accuracy of the last step 75%" in printed
    right = runnable.locator(".sg-result:not(.sg-result--bug)")
    assert "final loss 0.001747" in right.locator(".sg-output").inner_text()
    described = "(c) => c.getAttribute('aria-label')"
    wrong_curve = bugged.locator(".sg-curve canvas").evaluate(described)
    right_curve = right.locator(".sg-curve canvas").evaluate(described)
    over_100_steps = "Loss and accuracy over 100 steps: loss 0.898 at step 1"
    assert wrong_curve == f"{over_100_steps}, 1.00 at step 100; accuracy 75% at the last step"
    assert right_curve == f"{over_100_steps}, 0.00175 at step 100; accuracy 100% at the last step"
    # side by side at 1280 px: the two results share a row
    boxes = [area.bounding_box() for area in (right, bugged)]
    assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] + 1
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 1
    shoot_switch(page, runnable, "no-zero-grad")


def shoot_switch(page, runnable, bug: str) -> None:
    """Screenshots of a switched block: light and dark at 1280 px, and a 390 px phone."""
    for width, scheme in ((1280, "default"), (1280, "slate"), (390, "default")):
        page.set_viewport_size({"width": width, "height": 1000})
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        page.wait_for_timeout(200)  # the curves redraw on the next frame
        runnable.screenshot(path=str(ARTIFACTS / f"switch-{bug}-{width}-{scheme}.png"))
