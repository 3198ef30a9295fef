"""The shared argument checks: what each accepts, and the message of what it refuses."""

import doctest
import random
import re

import pytest

from scratchgrad import _checks
from scratchgrad._checks import generator, is_number, is_whole_number, non_negative, whole_number


@pytest.mark.parametrize(
    ("x", "number", "whole"),
    [
        (3, True, True),
        (2.5, True, False),
        (True, False, False),
        (False, False, False),
        ("3", False, False),
        (None, False, False),
    ],
)
def test_a_bool_is_neither_a_number_nor_a_whole_number(x, number, whole):
    assert (is_number(x), is_whole_number(x)) == (number, whole)


def test_whole_number_returns_what_it_accepts_and_names_owner_and_argument():
    assert whole_number(5, "moons", "n", minimum=2) == 5
    for bad in (1, 2.0, True, "3"):
        with pytest.raises(
            ValueError, match=re.escape(f"moons needs n to be a whole number ≥ 2, got n={bad!r}")
        ):
            whole_number(bad, "moons", "n", minimum=2)


def test_non_negative_refuses_negatives_infinity_nan_and_bools():
    assert non_negative(0, "hinge", "l2", "the weight of the penalty") == 0.0
    for bad in (-0.1, float("inf"), float("nan"), True, "0.1"):
        with pytest.raises(
            ValueError, match=re.escape(f"hinge needs l2 ≥ 0 (the weight of the penalty), got l2={bad!r}")
        ):
            non_negative(bad, "hinge", "l2", "the weight of the penalty")


def test_generator_seeds_a_new_random_from_an_int():
    assert generator(7, "moons").random() == random.Random(7).random()
    with pytest.raises(TypeError, match=re.escape("moons needs an int seed, got NoneType None")):
        generator(None, "moons")
    with pytest.raises(TypeError, match=re.escape("moons needs an int seed, got bool True")):
        generator(True, "moons")


def test_a_shared_generator_also_takes_a_random_as_it_is_and_none():
    rng = random.Random(1)
    assert generator(rng, "MLP", "rng", shared=True) is rng
    assert generator(None, "MLP", "rng", shared=True) is None
    with pytest.raises(
        TypeError, match=re.escape("MLP needs rng to be a random.Random, an int seed or None, got")
    ):
        generator(1.5, "MLP", "rng", shared=True)


def test_docstring_examples():
    assert doctest.testmod(_checks).failed == 0
