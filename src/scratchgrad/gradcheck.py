"""Gradient checking: compare backpropagation with central differences.

A slope can be measured without calculus by nudging the input both ways and watching the output,
f'(x) ≈ (f(x + h) − f(x − h)) / 2h, exact up to a term in h² (the f'' terms of the two nudges
cancel), so with h = 1e-6 it agrees with a correct gradient to many digits: far too slow to train
with, but the independent witness every backward rule is tested against. The functions take `f`,
a function of Values returning one Value, and `inputs`, one entry per argument of `f`: a number
(f receives a `Value`) or a list of numbers (f receives a list of Values).

Example:
    >>> report = check_gradients(lambda a, b: a * b + b.exp(), [2.0, 0.5])
    >>> report.passed
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scratchgrad._checks import is_number
from scratchgrad.engine import Number, Value

__all__ = [
    "GradientCheckError",
    "GradientReport",
    "InputCheck",
    "check_gradients",
    "numerical_gradients",
    "relative_error",
]

Input = Number | Sequence[Number]
Gradient = float | list[float]


# --8<-- [start:numerical_gradients]
def numerical_gradients(f: Callable[..., Value], inputs: Sequence[Input], h: float = 1e-6) -> list[Gradient]:
    """d f / d input, for every input, by central differences (no backward pass).

    Returns one entry per input, shaped like it: a float for a number, a list
    of floats for a list.

    Example:
        >>> [round(g, 6) for g in numerical_gradients(lambda a, b: a * b, [3.0, -2.0])]
        [-2.0, 3.0]
    """
    if not h > 0:
        raise ValueError(f"numerical_gradients needs a step h > 0, got h={h!r}")
    groups, is_list = _groups(inputs)

    def f_at(shifted: list[list[float]]) -> float:
        return _call(f, [[Value(x) for x in group] for group in shifted], is_list).data

    gradients: list[Gradient] = []
    for i, group in enumerate(groups):
        slopes = []
        for j in range(len(group)):
            up = [list(g) for g in groups]
            down = [list(g) for g in groups]
            up[i][j] += h
            down[i][j] -= h
            slopes.append((f_at(up) - f_at(down)) / (2 * h))
        gradients.append(slopes if is_list[i] else slopes[0])
    return gradients


# --8<-- [end:numerical_gradients]


# --8<-- [start:relative_error]
def relative_error(a: float, b: float) -> float:
    """|a − b| / max(|a|, |b|, 1): relative for large gradients, absolute near 0.

    A pure ratio would call 1e-12 against 2e-12 a 50 % error, though both are
    rounding noise around a true 0; the floor of 1 prevents that.
    """
    if not (math.isfinite(a) and math.isfinite(b)):
        return 0.0 if a == b else math.inf
    return abs(a - b) / max(abs(a), abs(b), 1.0)


# --8<-- [end:relative_error]


@dataclass(frozen=True)
class InputCheck:
    """One input of a gradient check: both gradients and their worst disagreement."""

    backprop: tuple[float, ...]
    numerical: tuple[float, ...]
    worst_error: float


@dataclass(frozen=True)
class GradientReport:
    """The outcome of `check_gradients`: one `InputCheck` per input of `f`."""

    inputs: tuple[InputCheck, ...]
    tolerance: float

    @property
    def worst_errors(self) -> list[float]:
        """The worst relative error of each input."""
        return [check.worst_error for check in self.inputs]

    @property
    def passed(self) -> bool:
        """True when no input's worst relative error exceeds the tolerance."""
        return all(error <= self.tolerance for error in self.worst_errors)

    def __str__(self) -> str:
        lines = [f"gradient check (tolerance {self.tolerance:g}): {'passed' if self.passed else 'FAILED'}"]
        for i, check in enumerate(self.inputs):
            verdict = "ok" if check.worst_error <= self.tolerance else "TOO FAR"
            lines.append(
                f"  input {i}: worst relative error {check.worst_error:.3g} {verdict}"
                f"  backprop {_short(check.backprop)}  numerical {_short(check.numerical)}"
            )
        return "\n".join(lines)


class GradientCheckError(AssertionError):
    """Backpropagation and central differences disagree beyond the tolerance."""


def check_gradients(
    f: Callable[..., Value],
    inputs: Sequence[Input],
    h: float = 1e-6,
    tolerance: float = 1e-6,
    *,
    strict: bool = True,
) -> GradientReport:
    """Compare the gradients of ``f(*inputs).backward()`` with `numerical_gradients`.

    Returns a `GradientReport` with the worst relative error of each input.
    When an error exceeds `tolerance`, raises `GradientCheckError` (its
    message is the report) unless ``strict=False``, which returns the failing
    report instead.

    Example:
        >>> report = check_gradients(lambda w, x: (w[0] * x + w[1]).tanh(), [[0.5, -1.0], 2.0])
        >>> len(report.worst_errors)
        2
    """
    if not tolerance > 0:
        raise ValueError(f"check_gradients needs a tolerance > 0, got tolerance={tolerance!r}")
    groups, is_list = _groups(inputs)
    numerical = numerical_gradients(f, inputs, h)
    args = [[Value(x) for x in group] for group in groups]
    _call(f, args, is_list).backward()
    checks = []
    for values, estimate in zip(args, numerical, strict=True):
        backprop = tuple(v.grad for v in values)
        estimate = tuple(estimate) if isinstance(estimate, list) else (estimate,)
        worst = max(relative_error(a, b) for a, b in zip(backprop, estimate, strict=True))
        checks.append(InputCheck(backprop, estimate, worst))
    report = GradientReport(tuple(checks), tolerance)
    if strict and not report.passed:
        raise GradientCheckError(str(report))
    return report


def _groups(inputs: Sequence[Input]) -> tuple[list[list[float]], list[bool]]:
    """Every input as a list of floats, and whether f receives it as a list."""
    if not isinstance(inputs, Sequence) or not inputs:
        raise ValueError(f"gradient check needs a non-empty list of inputs, one per argument; got {inputs!r}")
    groups, is_list = [], []
    for i, item in enumerate(inputs):
        items = item if isinstance(item, Sequence) else [item]
        for x in items:
            if not is_number(x):
                raise TypeError(f"gradient check: input {i} must hold numbers, got {type(x).__name__} {x!r}")
        groups.append([float(x) for x in items])
        is_list.append(isinstance(item, Sequence))
    return groups, is_list


def _call(f: Callable[..., Value], args: list[list[Value]], is_list: list[bool]) -> Value:
    out = f(*[group if listed else group[0] for group, listed in zip(args, is_list, strict=True)])
    if not isinstance(out, Value):
        raise TypeError(f"gradient check: f must return one Value, got {type(out).__name__} {out!r}")
    return out


def _short(numbers: tuple[float, ...]) -> str:
    shown = ", ".join(f"{x:.6g}" for x in numbers[:4])
    return f"[{shown}{', …' if len(numbers) > 4 else ''}]"
