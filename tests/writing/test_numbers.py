"""`scratchgrad.writing.numbers.written`: the one way the tutorial writes a number in a sentence."""

from __future__ import annotations

import math

import pytest

from scratchgrad.writing.numbers import TRUE_MINUS, written


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (-3, "-3.0"),
        (0.70710678, "0.707107"),
        (-0.2511364, "-0.251136"),
        (2.2e-05, "2.2e-05"),
        (12345678.9, "1.235e+07"),
        (0.0, "0.0"),
        (-0.0, "0.0"),
        (math.nan, "nan"),
        (-math.inf, "-inf"),
    ],
)
def test_a_number_is_written_with_at_most_six_decimals(x, text):
    assert written(x) == text


def test_numbers_that_differ_in_the_fifth_digit_are_written_differently():
    assert written(0.25113) != written(0.25114)


def test_the_page_asks_for_a_true_minus():
    assert written(-0.5, TRUE_MINUS) == "−0.5"
    assert written(-2.2e-05, TRUE_MINUS) == "−2.2e−05"


@pytest.mark.parametrize("odd", [True, "1.0", None, [1.0]])
def test_what_is_not_a_number_is_written_as_its_repr(odd):
    assert written(odd) == repr(odd)
