"""The checks of arguments that many functions share, each written once with its message.

Every message names the function that was called (`owner`), the argument and the value
it got, so the reader sees which call to fix.

Example:
    >>> whole_number(0, "MLP", "nin")
    Traceback (most recent call last):
    ...
    ValueError: MLP needs nin to be a whole number ≥ 1, got nin=0
"""

from __future__ import annotations

import math
import random


def is_number(x: object) -> bool:
    """True for an int or a float but not a bool: ``True`` is an int to Python, never a number here."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_whole_number(x: object) -> bool:
    """True for an int that is not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)


def whole_number(n: object, owner: str, name: str, minimum: int = 1) -> int:
    """`n` if it is a whole number ≥ `minimum`, else a ValueError naming `owner` and `name`."""
    if not is_whole_number(n) or n < minimum:
        raise ValueError(f"{owner} needs {name} to be a whole number ≥ {minimum}, got {name}={n!r}")
    return n


def non_negative(x: object, owner: str, name: str, meaning: str) -> float:
    """`x` as a float if it is a finite number ≥ 0, else a ValueError that says what `x` means."""
    if not is_number(x) or not 0 <= x < math.inf:
        raise ValueError(f"{owner} needs {name} ≥ 0 ({meaning}), got {name}={x!r}")
    return float(x)


def generator(seed: object, owner: str, name: str = "seed", shared: bool = False) -> random.Random | None:
    """A `random.Random` seeded with the int `seed`, or a TypeError naming `owner` and `name`.

    With ``shared=True`` a `random.Random` is taken as it is (its draws go on
    where they left off) and None stays None (Python's global generator).
    """
    if shared and (seed is None or isinstance(seed, random.Random)):
        return seed
    if is_whole_number(seed):
        return random.Random(seed)
    expected = f"{name} to be a random.Random, an int seed or None" if shared else f"an int {name}"
    raise TypeError(f"{owner} needs {expected}, got {type(seed).__name__} {seed!r}")
