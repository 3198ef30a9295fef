"""Every backward rule adds its share, the ``+=`` lesson checked one rule at a time: a Value used
twice receives a share of gradient from each use, so `require_adds` calls one rule,
``out._backward()``, on children whose ``grad`` already holds an earlier share, and fails, naming
the rule and where the reader wrote it, when that share is gone; rules written before "The += bug"
are held to it by the accumulate exercise, all at once, and later rules by their own exercise.
"""

from __future__ import annotations

import linecache
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scratchgrad.exercises.blame import lines_that_set
from scratchgrad.exercises.exercise import Engine, Fail
from scratchgrad.exercises.oracle import close
from scratchgrad.exercises.sandbox import READER_FILE_PREFIX
from scratchgrad.writing.numbers import written

__all__ = ["RULES", "Rule", "require_adds", "rules_of"]

A, B = 1.5, -0.5  # the children's data: a > 0, so log and relu have a slope
EARLIER_A, EARLIER_B = 0.25, -0.75  # shares the children hold before the rule runs
OUT_GRAD = 2.0


@dataclass(frozen=True)
class Rule:
    """One primitive's backward rule: its name, the method that makes it, and d(out)/d(a), d(out)/d(b)."""

    name: str
    method: str
    text: str
    apply: Callable[[object, object], object]
    slopes: Callable[[float, float], tuple[float, float | None]]


RULES = (
    Rule("+", "__add__", "a + b", lambda a, b: a + b, lambda a, b: (1.0, 1.0)),
    Rule("*", "__mul__", "a * b", lambda a, b: a * b, lambda a, b: (b, a)),
    Rule("tanh", "tanh", "a.tanh()", lambda a, b: a.tanh(), lambda a, b: (1 - math.tanh(a) ** 2, None)),
    Rule("**", "__pow__", "a ** 3", lambda a, b: a**3, lambda a, b: (3 * a**2, None)),
    Rule("exp", "exp", "a.exp()", lambda a, b: a.exp(), lambda a, b: (math.exp(a), None)),
    Rule("log", "log", "a.log()", lambda a, b: a.log(), lambda a, b: (1 / a, None)),
    Rule("relu", "relu", "a.relu()", lambda a, b: a.relu(), lambda a, b: (1.0 if a > 0 else 0.0, None)),
    Rule(
        "sigmoid",
        "sigmoid",
        "a.sigmoid()",
        lambda a, b: a.sigmoid(),
        lambda a, b: ((1 / (1 + math.exp(-a))) * (1 - 1 / (1 + math.exp(-a))), None),
    ),
)


def rules_of(value_class: type, names: Iterable[str] | None = None) -> list[Rule]:
    """The rules of `RULES` (or of `names`) that the reader's Value has a method for."""
    wanted = set(names) if names is not None else None
    return [
        rule
        for rule in RULES
        if (wanted is None or rule.name in wanted) and callable(getattr(value_class, rule.method, None))
    ]


def written_in(value_class: type, method: str) -> str:
    """Where the reader wrote `method` of their Value: "your code for 'accumulate'", or ""."""
    function = getattr(value_class, method, None)
    filename = getattr(getattr(function, "__code__", None), "co_filename", "")
    if filename.startswith(READER_FILE_PREFIX):
        return f" (your code for {filename[len(READER_FILE_PREFIX) : -1]!r})"
    return ""


def line_in(function: object, needle: str) -> str:
    """Where in the reader's `function` the first line holding `needle` is: " (your line 7: `…`)", or ""."""
    found = line_of(function, needle)
    return f" (your line {found[0]}: `{found[1]}`)" if found else ""


def line_of(function: object, needle: str) -> tuple[int, str] | None:
    """The number and text of the first line of the reader's `function` holding `needle`, or None."""
    code = getattr(function, "__code__", None)
    filename = getattr(code, "co_filename", "")
    if not filename.startswith(READER_FILE_PREFIX):
        return None
    first = code.co_firstlineno
    lines = linecache.getlines(filename)
    last = max((line for _, _, line in code.co_lines() if line is not None), default=first)
    for number in range(first, min(last, len(lines)) + 1):
        if needle in lines[number - 1]:
            return number, lines[number - 1].strip()
    return None


def require_adds(engine: Engine, rule: Rule) -> str:
    """Run `rule` once on children that already hold a share; fail unless each share was added to."""
    value_class = engine.Value
    a, b = value_class(A), value_class(B)
    a.grad, b.grad = EARLIER_A, EARLIER_B
    out = rule.apply(a, b)
    backward = getattr(out, "_backward", None)
    if not callable(backward):
        raise Fail(f"{rule.text} has no _backward to call: every result needs its rule")
    out.grad = OUT_GRAD
    backward()
    slope_a, slope_b = rule.slopes(A, B)
    for child, got, earlier, slope in (("a", a.grad, EARLIER_A, slope_a), ("b", b.grad, EARLIER_B, slope_b)):
        if slope is None:
            continue
        where = written_in(value_class, rule.method)
        line = lines_that_set(backward, a if child == "a" else b)
        line = f" ({line})" if line else ""
        share = slope * OUT_GRAD
        if close(got, share) and not close(share, earlier + share):
            raise Fail(
                f"your rule for {rule.name}{where} sets {child}.grad with `=`{line}: {child} held "
                f"{written(earlier)} "
                f"from another use, and after out = {rule.text} with out.grad = {written(OUT_GRAD)} it holds "
                f"{written(got)}, only this share. A Value used twice must collect both: "
                f"{'self' if child == 'a' else 'other'}.grad += …"
            )
        if not close(got, earlier + share):
            raise Fail(
                f"your rule for {rule.name}{where}{line}: with {child}.grad = {written(earlier)} before and "
                f"out.grad = "
                f"{written(OUT_GRAD)}, {child}.grad should become {written(earlier)} + {written(share)} = "
                f"{written(earlier + share)}; yours is {written(got)}"
            )
    return f"{rule.name} adds its share"
