"""Wrong pieces that passed the checks before the item-5 audit of issue 45, and fail them now."""

from __future__ import annotations

import pytest

from scratchgrad.exercises import check
from scratchgrad.exercises.registry import by_id

TANH_BY_EXP = """import math


def tanh_derivative(x):
    return 4 / (math.exp(x) + math.exp(-x)) ** 2
"""


def test_a_tanh_derivative_that_overflows_far_out_fails():
    report = check("tanh-derivative", TANH_BY_EXP, seed=1)
    [line] = [line for line in report.checks if not line.passed]
    assert line.message.startswith("tanh'(400.0) raised OverflowError; it is 0.0 as a float"), report.text()


def test_a_numerical_gradient_that_ignores_its_h_fails():
    source = (
        by_id("gradient-check")
        .solution.replace("up[i] += h", "up[i] += 1e-6")
        .replace("down[i] -= h", "down[i] -= 1e-6")
        .replace("/ (2 * h)", "/ (2 * 1e-6)")
    )
    report = check("gradient-check", source, seed=1)
    [line] = [line for line in report.checks if not line.passed]
    assert line.title == "numerical_gradient nudges both ways"
    assert line.message.endswith("nudging both ways is off by h² = 0.0001: use the h it is given"), (
        line.message
    )


@pytest.mark.parametrize(
    ("exercise", "old", "new", "title"),
    [
        # a slope with the sign of its rise lost: only a falling function shows it
        (
            "slope",
            "return rise / h",
            "return abs(rise) / h if x > 0 else rise / h",
            "slope of other functions",
        ),
        # a step that only ever moves right: only a slope that is positive shows it
        ("descent", None, None, "one step on (x − 3)² from x = 0"),
    ],
)
def test_a_sign_only_a_falling_case_shows_fails_on_the_fixed_cases(exercise, old, new, title):
    solution = by_id(exercise).solution
    if old is None:  # descent: x += lr·|slope|
        source = solution.replace("x = x - lr * slope(f, x)", "x = x + lr * abs(slope(f, x))")
        assert source != solution, solution
    else:
        source = solution.replace(old, new)
        assert source != solution
    for seed in range(5):  # whatever the random cases
        report = check(exercise, source, seed=seed)
        assert not next(line for line in report.checks if line.title == title).passed, report.text()


def test_a_neuron_whose_bias_starts_at_zero_passes():
    # The task draws the weights at random; of the bias it says only that there is one (0 is common).
    source = by_id("mlp").solution.replace("self.b = Value(random.uniform(-1, 1))", "self.b = Value(0.0)")
    assert source != by_id("mlp").solution
    report = check("mlp", source, seed=1)
    assert report.passed, report.text()


TEXT = (
    "import pathlib\nimport scratchgrad.exercises as ex\n\n"
    "TEXT = (pathlib.Path(ex.__file__).parent / '_pieces/slope/solution.py').read_text()\n"
)
BORROWED = {
    "exec'd under the reader's own file name": (
        TEXT + "\n\ndef here():\n    pass\n\n\nexec(compile(TEXT, here.__code__.co_filename, 'exec'))\n"
    ),
    "imported by a computed name, passed as a default": (
        "import importlib\n\n"
        "book = importlib.import_module('scratchgrad.exercises._pieces.' + 'slope.solution')\n"
        "\n\ndef slope(f, x, h=1e-6, book_slope=book.slope):\n    return book_slope(f, x, h)\n"
    ),
    "exec'd from its text, called through a closure": (
        TEXT + "found = {}\nexec(TEXT, found)\n\n\ndef wrap(inner):\n    def slope(f, x, h=1e-6):\n"
        "        return inner(f, x, h)\n\n    return slope\n\n\nslope = wrap(found['slope'])\n"
    ),
}


@pytest.mark.parametrize("how", BORROWED)
def test_the_reference_run_however_it_is_loaded_is_not_the_readers_own(how):
    report = check("slope", BORROWED[how], seed=1)
    assert report.checks[0].title == "the piece is your own code", report.text()
    assert not report.passed


def test_the_reference_typed_by_the_reader_is_their_own():
    assert check("slope", by_id("slope").solution, seed=1).passed


UNMARKED_WALK = """def topological_order(root):
    order = []

    def visit(node):
        for child in node._prev:
            visit(child)
        if node not in order:
            order.append(node)

    visit(root)
    return order
"""


def test_a_topological_order_that_walks_every_path_fails():
    # Its order is right; it reads a node's children once per path to it, 2¹² times on 12 diamonds.
    report = check("topological-order", UNMARKED_WALK, seed=1)
    [line] = [line for line in report.checks if not line.passed]
    assert line.title.startswith("12 diamonds in a row"), report.text()
    assert "Mark a node as visited when you first reach it" in line.message
