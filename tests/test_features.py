"""Features: each formula, the order kept, bad names and bad points refused with a message."""

import doctest
import math
import re

import pytest

from scratchgrad import features
from scratchgrad.features import FEATURES, featured


def test_each_feature_is_its_formula_of_the_two_coordinates():
    x1, x2 = 0.5, -2.0
    expected = {
        "x1": x1, "x2": x2, "x1_sq": x1**2, "x2_sq": x2**2, "x1_x2": x1 * x2,
        "sin_x1": math.sin(x1), "sin_x2": math.sin(x2),
    }  # fmt: skip
    assert set(FEATURES) == set(expected)
    for name, value in expected.items():
        assert featured([[x1, x2]], [name]) == [[value]]


def test_points_are_described_by_the_features_in_the_order_asked():
    assert featured([[1.0, 2.0], [3.0, -1.0]], ["x2_sq", "x1"]) == [[4.0, 1.0], [1.0, 3.0]]


def test_every_feature_is_written_for_a_reader_with_subscripts():
    written = [text for text, _ in FEATURES.values()]
    assert written == ["x₁", "x₂", "x₁²", "x₂²", "x₁x₂", "sin x₁", "sin x₂"]


@pytest.mark.parametrize(
    ("xs", "names", "message"),
    [
        ([[1.0, 2.0]], [], "one or more features from x1, x2"),
        ([[1.0, 2.0]], ["x3"], "got ['x3']"),
        ([[1.0, 2.0, 3.0]], ["x1"], "points of the plane, [x1, x2]; got [1.0, 2.0, 3.0]"),
    ],
)
def test_bad_names_and_points_that_are_not_of_the_plane_are_refused(xs, names, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        featured(xs, names)


def test_the_docstring_examples_hold():
    results = doctest.testmod(features)
    assert (results.failed, results.attempted > 0) == (0, True)
