"""The playground package: the example in its docstring."""

from __future__ import annotations

import doctest

from scratchgrad import playground


def test_the_docstring_examples_hold():
    results = doctest.testmod(playground)
    assert (results.failed, results.attempted > 0) == (0, True)
