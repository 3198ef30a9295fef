"""Features: describing a point of the plane by more than its two coordinates.

A network sees only the numbers it is given. Given ``x1`` and ``x2`` alone, a model with no hidden
layer can draw one straight line; given also ``x1_sq`` and ``x2_sq`` (x₁² and x₂²), the same
model draws a circle, since a weighted sum of x₁² and x₂² is a squared distance from the
centre. Re-describing the input this way is what a hidden layer learns to do by itself; here it
is done by hand, with the features TensorFlow Playground offers: `FEATURES` names each (its
name, as in a URL, and how it is written), and `featured` describes every point by the chosen
ones.

Example:
    >>> featured([[2.0, 3.0]], ["x1", "x2", "x1_x2", "x1_sq"])
    [[2.0, 3.0, 6.0, 4.0]]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

__all__ = ["FEATURES", "Feature", "featured"]

Feature = Callable[[float, float], float]

FEATURES: dict[str, tuple[str, Feature]] = {
    "x1": ("x₁", lambda x1, x2: x1),
    "x2": ("x₂", lambda x1, x2: x2),
    "x1_sq": ("x₁²", lambda x1, x2: x1 * x1),
    "x2_sq": ("x₂²", lambda x1, x2: x2 * x2),
    "x1_x2": ("x₁x₂", lambda x1, x2: x1 * x2),
    "sin_x1": ("sin x₁", lambda x1, x2: math.sin(x1)),
    "sin_x2": ("sin x₂", lambda x1, x2: math.sin(x2)),
}
"""Each feature's name → (how it is written, its formula of the point's coordinates x₁, x₂)."""


def featured(xs: Sequence[Sequence[float]], names: Sequence[str]) -> list[list[float]]:
    """Every point of `xs` (a point of the plane, [x₁, x₂]) described by the features `names`, in order."""
    unknown = [name for name in names if name not in FEATURES]
    if unknown or not names:
        raise ValueError(
            f"featured needs one or more features from {', '.join(FEATURES)}; got {list(names)!r}"
        )
    formulas = [FEATURES[name][1] for name in names]
    for point in xs:
        if len(point) != 2:
            raise ValueError(f"featured describes points of the plane, [x1, x2]; got {list(point)!r}")
    return [[formula(x1, x2) for formula in formulas] for x1, x2 in xs]
