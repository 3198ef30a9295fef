"""Sources declared as edits: wrong variants of a solution, a solution taken from a chapter's snippet."""

from __future__ import annotations

import inspect

import pytest

from scratchgrad.exercises.registry import by_id
from scratchgrad.exercises.sources import SnippetSolution, SourceError, WrongVariant
from scratchgrad.stages import closures

SOLUTION = "def slope(f, x, h=1e-6):\n    rise = f(x + h) - f(x)\n    return rise / h\n"


def test_a_wrong_variant_is_the_solution_with_its_edits_made_in_order():
    variant = WrongVariant("both", "bug", "message", (("rise / h", "rise"), ("return rise", "return -rise")))
    assert variant.source(SOLUTION, "slope") == SOLUTION.replace("return rise / h", "return -rise")


@pytest.mark.parametrize(("text", "times"), [("not in the solution", 0), ("f(x", 2)])
def test_an_edit_whose_text_is_not_there_once_names_exercise_variant_and_text(text, times):
    variant = WrongVariant("broken", "bug", "message", ((text, "x"),))
    with pytest.raises(SourceError) as raised:
        variant.source(SOLUTION, "slope")
    assert str(raised.value) == (
        f"exercise 'slope', wrong variant 'broken': the text {text!r} occurs {times} times; "
        "an edit needs it exactly once"
    )


def test_wrong_source_writes_out_the_declared_variant():
    slope = by_id("slope")
    assert slope.wrong_source("no-division") == slope.solution.replace("return rise / h", "return rise")


def test_an_unknown_wrong_variant_names_the_ones_there_are():
    with pytest.raises(SourceError) as raised:
        by_id("slope").wrong_source("nope")
    variants = "no-division, tiny-h, minus-f-of-h"
    assert str(raised.value) == f"exercise 'slope' has no wrong variant 'nope'; it has: {variants}"


def test_a_snippet_solution_is_the_code_the_chapter_shows_under_the_exercises_name():
    shown = inspect.getsource(closures.topological_order_recursive)
    expected = shown.replace("def topological_order_recursive(", "def topological_order(")
    assert by_id("topological-order").solution == expected


def test_a_snippet_section_that_is_not_there_is_named():
    missing = SnippetSolution(("scratchgrad.stages.closures:no_such_section",), "", ())
    with pytest.raises(SourceError) as raised:
        missing.source("topological-order")
    assert str(raised.value) == (
        "exercise 'topological-order': scratchgrad.stages.closures has no snippet section 'no_such_section'"
    )


def test_a_solution_of_several_snippets_follows_its_before_line_and_keeps_their_indentation():
    solution = by_id("accumulate").solution
    assert solution.startswith("import math\n\n\nclass Value(Value):  # your Value so far, re-opened")
    assert "\n    def __add__(self, other):\n" in solution
    assert "\n    def tanh(self):\n" in solution
    assert "\n    def __mul__(self, other):\n" in solution
    assert "# --8<--" not in solution


def test_a_declared_stub_is_the_solution_with_its_edits_made():
    local_derivatives = by_id("local-derivatives")
    assert local_derivatives.solution.count("def _backward():") == 3
    assert "def _backward():" not in local_derivatives.stub
    assert local_derivatives.stub.count("# TODO: give out its _backward: d(out)/d(self) = ") == 3
    assert local_derivatives.stub.startswith(local_derivatives.solution.split("        def _backward")[0])
