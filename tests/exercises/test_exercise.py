"""An exercise's wrong variants: declared as edits of the solution, and loud when an edit misses."""

from __future__ import annotations

import pytest

from scratchgrad.exercises.exercise import WrongVariant, WrongVariantError
from scratchgrad.exercises.registry import by_id

SOLUTION = "def slope(f, x, h=1e-6):\n    rise = f(x + h) - f(x)\n    return rise / h\n"


def test_a_wrong_variant_is_the_solution_with_its_edits_made_in_order():
    variant = WrongVariant("both", "bug", "message", (("rise / h", "rise"), ("return rise", "return -rise")))
    assert variant.apply(SOLUTION, "slope") == SOLUTION.replace("return rise / h", "return -rise")


@pytest.mark.parametrize(("text", "times"), [("not in the solution", 0), ("f(x", 2)])
def test_an_edit_whose_text_is_not_in_the_solution_once_names_exercise_variant_and_text(text, times):
    variant = WrongVariant("broken", "bug", "message", ((text, "x"),))
    with pytest.raises(WrongVariantError) as raised:
        variant.apply(SOLUTION, "slope")
    assert str(raised.value) == (
        f"exercise 'slope', wrong variant 'broken': the text {text!r} occurs {times} times in "
        "solution.py; an edit needs it exactly once"
    )


def test_wrong_source_writes_out_the_declared_variant():
    slope = by_id("slope")
    assert slope.wrong_source("no-division") == slope.solution.replace("return rise / h", "return rise")


def test_an_unknown_wrong_variant_names_the_ones_there_are():
    with pytest.raises(WrongVariantError, match="exercise 'slope' has no wrong variant 'nope'; it has: "):
        by_id("slope").wrong_source("nope")
