"""How a number is written for a reader: one rule for every sentence the tutorial writes about one.

A check's message ("should be -0.251136; yours is -0.135721") and a step through backward
("a.grad += −3.0 × −2.0 = 6.0") write their numbers alike: at most six decimals, so two numbers
that differ where a learner's bug shows never print the same; an exponent only for the very small
and the very large; a float keeps its ``.0``. The page sets its minus sign as a true minus (``−``),
which a screen reader says as "minus"; a terminal keeps Python's ``-``, so the number can be pasted.

Example:
    >>> written(-3)
    '-3.0'
    >>> written(0.70710678)
    '0.707107'
    >>> written(2.2e-05)
    '2.2e-05'
    >>> written(float("nan"))
    'nan'
    >>> written(-0.5, minus="−")
    '−0.5'
    >>> written("a")
    "'a'"
"""

from __future__ import annotations

import math

from scratchgrad._checks import is_number

TRUE_MINUS = "−"


def written(x: object, minus: str = "-") -> str:
    """`x` as a learner reads it in a sentence (see above); a value that is not a number, as its repr."""
    if not is_number(x):
        return repr(x)
    x = float(x)
    if not math.isfinite(x) or x == 0 or 1e-4 <= abs(x) < 1e7:
        text = repr(round(x, 6) + 0.0)
    else:
        text = f"{x:.4g}"
    return text.replace("-", minus)
